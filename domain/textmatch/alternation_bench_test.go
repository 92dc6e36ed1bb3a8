package textmatch

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// BenchmarkAlternation scans 4 MB of words for N plain words joined by |,
// case-insensitive, with the multi-literal matcher ("literals") and, for
// comparison, with the regex scan it replaces ("regex", the matcher with
// its literal sets taken away):
//
//	go test ./domain/textmatch -run '^$' -bench Alternation -benchtime 3x
func BenchmarkAlternation(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 9))
	word := func() string {
		var w strings.Builder
		for n := 3 + rng.IntN(7); n > 0; n-- {
			w.WriteByte(byte('a' + rng.IntN(26)))
		}
		return w.String()
	}
	var text strings.Builder
	for text.Len() < 4<<20 {
		for range 10 {
			text.WriteString(word())
			text.WriteByte(' ')
		}
		text.WriteByte('\n')
	}
	content := []byte(text.String())
	v := NewText(content)
	v.lowered(content)
	for _, n := range []int{10, 100, 3000} {
		words := make([]string, n)
		for i := range words {
			words[i] = word() + "q" + word() // rare: a hit in a few lines
		}
		query := strings.Join(words, "|")
		for _, how := range []string{"literals", "regex"} {
			if how == "regex" && n > 10 {
				continue // 80 s a scan at 100 words, minutes at more
			}
			b.Run(fmt.Sprintf("words=%d/%s", n, how), func(b *testing.B) {
				m, err := Compile(query, true, false)
				if err != nil {
					b.Fatal(err)
				}
				if how == "regex" {
					m.lits, m.multi = nil, nil
				}
				b.SetBytes(int64(len(content)))
				for b.Loop() {
					m.Scan(context.Background(), content, v, 0, -1, nil)
				}
			})
		}
	}
}
