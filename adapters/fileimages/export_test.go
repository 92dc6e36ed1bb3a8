package fileimages

// Parses reports how many times s has parsed its index file.
func Parses(s *Store) int64 { return s.parses.Load() }
