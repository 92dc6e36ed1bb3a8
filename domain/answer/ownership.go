package answer

// AssignLines gives each line of a call to the first chunk that asks for
// it and splits every chunk into segments by who returns them. A chunk
// with no line of its own is Covered, as is an empty doc shown already.
func AssignLines(chunks []*Chunk) {
	// Per doc: for each line, 1 + the index of the chunk that returned it
	// (0 if none); for a doc without body lines, 1 + the chunk that showed it.
	owners := map[*DocText][]int32{}
	emptyOwner := map[*DocText]int32{}
	for ci, c := range chunks {
		own := int32(ci + 1)
		owner := owners[c.Doc]
		if owner == nil {
			owner = make([]int32, c.Doc.N+1)
			owners[c.Doc] = owner
		}
		for k := c.From; k <= c.To; k++ {
			o := int(owner[k]) - 1
			if o < 0 {
				owner[k] = own
				o = ci
			}
			if n := len(c.Segments); n > 0 && c.Segments[n-1].Owner == o {
				c.Segments[n-1].To = k
				continue
			}
			c.Segments = append(c.Segments, Segment{From: k, To: k, Owner: o})
		}
		switch {
		case c.From > c.To && emptyOwner[c.Doc] > 0:
			c.State = Covered // an empty doc shown once already
		case c.From > c.To:
			emptyOwner[c.Doc] = own
		case !c.HasNewLines(ci):
			c.State = Covered
		}
	}
}
