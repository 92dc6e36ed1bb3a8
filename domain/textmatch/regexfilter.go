package textmatch

import (
	"cmp"
	"context"
	"regexp"
	"regexp/syntax"
	"slices"
)

// A body regex matches a whole text (no 'm' flag: librarian-ts's
// searchDocuments matches doc bodies so), and Go's regexp then meets 5 KB
// inputs, too long for its fast backtracker: it falls back to the NFA,
// about a millisecond a doc. A
// match must hold the literals the regex requires, in order and within the
// runes the pieces between can span (see bodyPlan): the literals are found
// in place, the rare candidate places checked, and the regex run only on
// the small windows around those that pass, cut where the regex's
// assertions see the window as the body (cutLeft, cutRight), so a window's
// match is the body's; the first window matching answers. The body is
// matched whole only when the plan proves nothing: a branch without a
// literal, a literal too common (too many occurrences or windows), or a
// U+212A or U+017F where a folded k or s is looked for.

// maxOccurrences bounds the anchor occurrences looked at per branch in
// a body of up to 8 KB (one per 32 bytes past that): past it (a common
// literal), one whole-body match is cheaper.
const maxOccurrences = 256

// maxWindows bounds the windows matched per body of up to 32 KB (one
// per 512 bytes past that), for the same reason.
const maxWindows = 64

// scanBudget bounds the bytes of near stretches scanned per body, in
// body lengths (a long bounded gap, foo.{0,1000}bar, and a common literal
// would scan the same bytes again and again).
const scanBudget = 8

// BodyMatcher tests bodies against a whole-body regex. It is
// read-only once built.
type BodyMatcher struct {
	re   *regexp.Regexp
	plan *bodyPlan // nil: every body is matched whole
}

func NewBodyMatcher(re *regexp.Regexp) *BodyMatcher {
	m := &BodyMatcher{re: re}
	if tree, err := syntax.Parse(re.String(), syntax.Perl); err == nil {
		m.plan = newBodyPlan(tree)
	}
	return m
}

// window is body[lo:hi], to be matched with the regex.
type window struct{ lo, hi int }

// match reports whether body holds a match, as re.MatchString(body).
func (m *BodyMatcher) Match(ctx context.Context, body string) bool {
	if m.plan == nil {
		return m.run(ctx, body)
	}
	var occBuf [32]occurrence
	var winBuf [16]window
	wins := winBuf[:0]
	ok := true
	for i := range m.plan.branches {
		if wins, ok = m.plan.branches[i].windows(body, wins, occBuf[:0]); !ok {
			return m.run(ctx, body)
		}
	}
	if len(wins) == 0 {
		return false
	}
	for i := range wins {
		wins[i] = window{m.plan.cutLeft(body, wins[i].lo), m.plan.cutRight(body, wins[i].hi)}
	}
	if len(wins) > 1 {
		slices.SortFunc(wins, func(a, b window) int { return cmp.Compare(a.lo, b.lo) })
	}
	// Overlapping windows are matched as one; the first match answers.
	cur := wins[0]
	for _, w := range wins[1:] {
		if w.lo < cur.hi {
			cur.hi = max(cur.hi, w.hi)
			continue
		}
		if m.run(ctx, body[cur.lo:cur.hi]) {
			return true
		}
		cur = w
	}
	return m.run(ctx, body[cur.lo:cur.hi])
}

// windows appends to wins the windows of body (uncut) that hold every
// match of the branch; ok is false when the body must be matched whole.
// occs is scratch space.
func (b *planBranch) windows(body string, wins []window, occs []occurrence) (_ []window, ok bool) {
	anchor := &b.pieces[b.anchor]
	if anchor.ks && hasSpecial(body) {
		return wins, false
	}
	if occs, ok = anchor.appendAll(occs, body, max(maxOccurrences, len(body)/32)); !ok {
		return wins, false
	}
	if len(occs) == 0 {
		return wins, true
	}
	if len(occs) > 1 {
		slices.SortFunc(occs, func(a, b occurrence) int { return cmp.Compare(a.start, b.start) })
	}
	// A far check's literal must occur on its side of some anchor occurrence.
	for _, c := range b.far {
		from, to := 0, occs[len(occs)-1].start
		if !c.before {
			from, to = len(body), len(body)
			for _, o := range occs {
				from = min(from, o.end)
			}
		}
		found, ok := b.pieces[c.piece].find(body, from, to)
		if !ok {
			return wins, false
		}
		if !found {
			return wins, true
		}
	}
	limit := max(maxWindows, len(body)/512)
	budget := scanBudget * max(len(body), 1<<10) // bytes of near stretches to scan
	for _, o := range occs {
		w, pass, ok := b.window(body, o, &budget)
		if !ok {
			return wins, false
		}
		if !pass {
			continue
		}
		if wins = append(wins, w); len(wins) > limit {
			return wins, false
		}
	}
	return wins, true
}

// window checks the near pieces around an anchor occurrence: pass is false
// when one has no literal in its stretch, else w holds every match of the
// branch made with o. ok is false when that cannot be told, or when the
// stretches scanned pass budget (bytes).
func (b *planBranch) window(body string, o occurrence, budget *int) (w window, pass, ok bool) {
	w = window{0, len(body)}
	if b.first == b.anchor && b.pre >= 0 {
		w.lo = runesBack(body, o.start, b.pre-o.runes)
	}
	if b.last == b.anchor && b.post >= 0 {
		w.hi = runesFwd(body, o.end, b.post-o.runes)
	}
	for _, c := range b.near {
		pc := &b.pieces[c.piece]
		// The piece's match, and so its literal, lies in body[from:to].
		from, to := o.end, runesFwd(body, o.end, c.span-o.runes)
		if c.before {
			from, to = runesBack(body, o.start, c.span-o.runes), o.start
		}
		if *budget -= to - from; *budget < 0 {
			return w, false, false
		}
		outer := c.piece == b.first && b.pre >= 0 || c.piece == b.last && b.post >= 0
		if !outer {
			found, ok := pc.find(body, from, to)
			if !ok || !found {
				return w, false, ok
			}
			continue
		}
		// The outermost piece's occurrences bound the window: a match
		// starts pre runes at most before the end of the literal's piece
		// and ends post runes at most after the start of its.
		if pc.ks && hasSpecial(body[from:to]) {
			return w, false, false
		}
		found := false
		lo, hi := len(body), 0
		for i := range pc.lits {
			l := &pc.lits[i]
			for p := l.index(body, from, to); p >= 0; p = l.index(body, p+1, to) {
				found = true
				if c.before {
					lo = min(lo, runesBack(body, p, b.pre-l.runes))
				} else {
					hi = max(hi, runesFwd(body, p+len(l.text), b.post-l.runes))
				}
			}
		}
		if !found {
			return w, false, true
		}
		if c.before {
			w.lo = lo
		} else {
			w.hi = hi
		}
	}
	return w, true, true
}

// find reports whether one of the piece's literals occurs wholly inside
// body[from:to]; ok is false when that cannot be told (a folded k or s,
// and U+212A or U+017F there).
func (pc *planPiece) find(body string, from, to int) (found, ok bool) {
	if pc.ks && hasSpecial(body[from:to]) {
		return false, false
	}
	for i := range pc.lits {
		if pc.lits[i].index(body, from, to) >= 0 {
			return true, true
		}
	}
	return false, true
}

func startsRune(b byte) bool { return b&0xC0 != 0x80 }

// run matches the regex over text, the whole body or a window of it; a
// long text is read through a reader that stops when ctx ends (a long body
// can take RE2 minutes).
func (m *BodyMatcher) run(ctx context.Context, text string) bool {
	if len(text) >= longInput {
		return FindIndex(ctx, m.re, []byte(text)) != nil
	}
	return m.re.MatchString(text)
}
