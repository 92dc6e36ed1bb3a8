//go:build !unix

package frontmatterindex

import "time"

func processCPUTime() (time.Duration, bool) { return 0, false }
