package browse_test

import (
	"errors"

	"github.com/librarian/librarian/domain"
)

func asIndexError(err error, target **domain.IndexError) bool { return errors.As(err, target) }
