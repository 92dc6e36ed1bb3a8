package domain

import "sort"

// SelNote is a note of a get_documents answer tied to the selector it
// concerns (Sel -1: none), so notes can be listed in select order.
type SelNote struct {
	Sel  int
	Text string
}

// NoteTexts orders notes by selector (notes tied to none last, each group
// in the order given) and returns their texts.
func NoteTexts(notes []SelNote) []string {
	sort.SliceStable(notes, func(i, j int) bool { return noteOrder(notes[i].Sel) < noteOrder(notes[j].Sel) })
	var out []string
	for _, n := range notes {
		out = append(out, n.Text)
	}
	return out
}

func noteOrder(sel int) int {
	if sel < 0 {
		return int(^uint(0) >> 1)
	}
	return sel
}
