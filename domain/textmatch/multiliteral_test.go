package textmatch

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestMatcherServesAlternationsWithLiterals checks which regexes the scan
// finds without running them over the lines: plain words joined by |
// (multi-Literal Matcher, exact), and which only prefilter.
func TestMatcherServesAlternationsWithLiterals(t *testing.T) {
	words := make([]string, 3000)
	for i := range words {
		words[i] = fmt.Sprintf("word%dx", i)
	}
	// Words with no common prefix, which the regexp parser would factor.
	var spread []string
	for i := range 100 {
		spread = append(spread, fmt.Sprintf("%c%c%d", 'a'+i%26, 'a'+i/26, i))
	}
	tests := []struct {
		query       string
		cs          bool
		lits, multi bool // which Literal Matcher
		exact       bool // no regex decides a line
	}{
		{query: "cat|dog", lits: true, exact: true},
		{query: "a|b|c|d|e|f|g|h|i|j", multi: true, exact: true},
		{query: strings.Join(words[:100], "|"), multi: true, exact: true},
		{query: strings.Join(words, "|"), multi: true, exact: true},
		{query: strings.Join(words, "|"), cs: true, multi: true, exact: true},
		{query: "colou?r|gr[ae]y|(?:re)?fresh|a|b|c|d|e|f|g", multi: true, exact: true},
		{query: `\b(` + strings.Join(words[:50], "|") + `)\b`, lits: true}, // "word", a prefilter
		{query: `\b(` + strings.Join(spread[:50], "|") + `)\b`, multi: true},
		{query: "café|" + strings.Join(spread[:20], "|"), multi: true},
		{query: "café|" + strings.Join(words[:20], "|"), cs: true, multi: true, exact: true},
		{query: `\d+`},
	}
	for _, tc := range tests {
		m, err := Compile(tc.query, true, tc.cs)
		if err != nil {
			t.Fatalf("%.40q: %v", tc.query, err)
		}
		gotExact := m.lits != nil && m.litExact || m.multi != nil && m.multi.exact
		if (m.lits != nil) != tc.lits || (m.multi != nil) != tc.multi || gotExact != tc.exact {
			t.Errorf("%.60q (case-sensitive %v): lits %v, multi %v, exact %v; want %v, %v, %v",
				tc.query, tc.cs, m.lits != nil, m.multi != nil, gotExact, tc.lits, tc.multi, tc.exact)
		}
	}
}

// TestAutomatonAgainstIndex compares the automaton's earliest-ending
// occurrence with bytes.Index of every Literal, over random text.
func TestAutomatonAgainstIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	alphabet := "abcab\xff\x00é"
	for iter := 0; iter < 500; iter++ {
		var lits [][]byte
		for n := 1 + rng.IntN(12); n > 0; n-- {
			l := make([]byte, 1+rng.IntN(4))
			for i := range l {
				l[i] = alphabet[rng.IntN(len(alphabet))]
			}
			lits = append(lits, l)
		}
		a, ok := newAutomaton(lits)
		if !ok {
			t.Fatal("a small set was refused")
		}
		hay := make([]byte, rng.IntN(60))
		for i := range hay {
			hay[i] = alphabet[rng.IntN(len(alphabet))]
		}
		for pos := 0; pos <= len(hay); pos++ {
			wantEnd, wantWidth := -1, 0
			for _, l := range lits {
				if j := bytes.Index(hay[pos:], l); j >= 0 {
					// The first occurrence ending earliest, and at the same
					// end the longest.
					for k := pos + j; k+len(l) <= len(hay); k++ {
						if bytes.HasPrefix(hay[k:], l) {
							end := k + len(l)
							if wantEnd < 0 || end < wantEnd || end == wantEnd && len(l) > wantWidth {
								wantEnd, wantWidth = end, len(l)
							}
							break
						}
					}
				}
			}
			start, width := a.find(hay, pos)
			if wantEnd < 0 {
				if start >= 0 {
					t.Fatalf("%q in %q from %d: found %d+%d, want none", lits, hay, pos, start, width)
				}
				continue
			}
			if start != wantEnd-wantWidth || width != wantWidth {
				t.Fatalf("%q in %q from %d: found %d+%d, want %d+%d", lits, hay, pos, start, width, wantEnd-wantWidth, wantWidth)
			}
		}
	}
	if a, ok := newAutomaton(nil); a != nil || !ok {
		t.Errorf("no Literal: got %v, %v", a, ok)
	}
}

// TestAutomatonSizeBound: a set whose table would be over
// maxAutomatonCells is refused (the regex scan, under the time limit,
// takes over), not built.
func TestAutomatonSizeBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var lits [][]byte
	for range 9000 {
		l := make([]byte, 8)
		for i := range l {
			l[i] = byte(rng.IntN(256))
		}
		lits = append(lits, l)
	}
	if _, ok := newAutomaton(lits); ok {
		t.Errorf("%d random 8-byte literals: the automaton was built", len(lits))
	}
}

// TestScanStopsWhenCancelled: a scan inside one doc checks its context
// between candidate lines and regex windows, so a cancelled search stops
// within the doc, having done a bounded part of it.
func TestScanStopsWhenCancelled(t *testing.T) {
	content := []byte(strings.Repeat("token here\nnothing\n", 200000))
	v := NewText(content)
	for _, q := range []struct {
		query string
		regex bool
	}{
		{"token", false}, {"TOKEN", false}, {`tok\w+`, true}, {`\d|token`, true},
		{`a|b|c|d|e|f|g|h|i|token`, true}, {`\Atoken`, true}, {`\s`, true},
	} {
		m, err := Compile(q.query, q.regex, false)
		if err != nil {
			t.Fatal(err)
		}
		all := m.Scan(context.Background(), content, v, 0, -1, nil)
		ctx := &countdownContext{Context: context.Background(), left: 5}
		got := m.Scan(ctx, content, v, 0, -1, nil)
		if ctx.checks == 0 || got > 16*6 || all > 0 && got >= all {
			t.Errorf("regex=%v %q: a scan cancelled after 5 checks found %d hits (of %d) in %d checks", q.regex, q.query, got, all, ctx.checks)
		}
	}
}

// countdownContext is done (Canceled) from its left-th Err call on, so a
// test can cancel at a point of the work rather than of the clock.
type countdownContext struct {
	context.Context
	left, checks int
}

func (c *countdownContext) Err() error {
	c.checks++
	if c.checks >= c.left {
		return context.Canceled
	}
	return nil
}
