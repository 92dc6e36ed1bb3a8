package domain

// The sizes an answer shows beside a doc or a section, so an agent can
// choose what to fetch: get_documents' own count (bytes / 4, rounded up).

// SectionTokens is a section's size as get_documents counts a chunk of
// file lines: bytes / 4, rounded up, of its lines (its subsections
// included). starts are the offsets of the doc's line starts
// (textmatch.LineStarts), size the doc's length in bytes.
func SectionTokens(sec Section, starts []int, size int) int {
	if sec.Start < 1 || sec.Start > len(starts) {
		return 0
	}
	from, to := starts[sec.Start-1], size
	if sec.End < len(starts) {
		to = starts[sec.End]
	}
	return EstimateTokens(int64(to - from))
}

// DocTokens is a doc's size as list_documents shows it: the index's count
// when it gives one, else bytes / 4 of the file (size bytes when the doc
// carries no stamp).
func DocTokens(d Document, size int) int {
	if d.HasTokens {
		return d.Tokens
	}
	if d.Stamp.Size > 0 {
		return EstimateTokens(d.Stamp.Size)
	}
	return EstimateTokens(int64(size))
}
