package wording

import (
	"fmt"
	"strings"
)

// LineSpan renders an inclusive line range as seed 000 does: L18–38, or L7
// for a single line.
func LineSpan(from, to int) string {
	if from == to {
		return fmt.Sprintf("L%d", from)
	}
	return fmt.Sprintf("L%d–%d", from, to)
}

// Plural picks the word for a count: one for 1, many otherwise.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// FolderName is how answers name a cleaned folder: "." for the root.
func FolderName(root string) string {
	if root == "" {
		return "."
	}
	return root
}

// WriteNotes appends a Notes: block when there are notes.
func WriteNotes(b *strings.Builder, notes []string) {
	if len(notes) == 0 {
		return
	}
	b.WriteString("\nNotes:\n")
	for _, n := range notes {
		b.WriteString("- ")
		b.WriteString(n)
		b.WriteString("\n")
	}
}

// OneLine squeezes s onto one line (runs of whitespace become one space)
// and cuts it to at most max runes, marking a cut with "…".
func OneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if max > 0 && len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}
