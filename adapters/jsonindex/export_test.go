package jsonindex

// Parses reports how many times x has parsed its index file.
func Parses(x *Index) int64 { return x.parses.Load() }
