package app

import "github.com/librarian/librarian/domain"

// Scope is the folder, tag and depth filter that list, search and tags
// share (domain.Scope, where root selectors use it too).
type Scope = domain.Scope
