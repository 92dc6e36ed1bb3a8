package app

// firstNonEmpty returns the first of s that is not empty, else "" (list's
// folder descriptions, get's image files, the settings' defaults).
func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
