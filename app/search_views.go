package app

import (
	"bytes"
	"runtime"
	"sync"
	"weak"
)

// The search view: what a search needs of a parsed doc beyond its bytes.

// searchView is built once per parsed doc version and kept beside the
// Library's parse cache: the offset of every line start, and (built on the
// first case-insensitive search) an ASCII-lowered copy of the content, the
// same length, so an offset in one is an offset in the other.
type searchView struct {
	starts []int // starts[i] is the byte offset of line i+1

	lowerOnce sync.Once
	lower     []byte // content with A-Z lowered; content itself when it has none
	special   bool   // content holds U+212A (Kelvin) or U+017F (long s)
}

func newSearchView(content []byte) *searchView {
	return &searchView{starts: lineStarts(content)}
}

// searchViews is one Library's side cache of search views, beside its parse
// cache: keyed by the *parsedDoc a view describes, so a file that changed
// (a new parsedDoc) gets a new view and a stale one is never used.
//
// Entries do not outlive their version: a path has one view, of the last
// version searched, and building the view of a new version drops the old
// one, so this cache holds at most one view per path, like the Library's
// parse cache holds one parse per path.
type searchViews struct {
	mu     sync.RWMutex
	byDoc  map[*parsedDoc]*searchView
	byPath map[string]*parsedDoc
}

// libraryViews holds each Library's searchViews, keyed by a weak pointer
// to the Library (package app cannot add the field to Library without
// touching its owner's file): a Library that is collected takes its views
// with it, through a cleanup.
var libraryViews sync.Map // weak.Pointer[Library] -> *searchViews

// views returns l's search views, making them on first use.
func (l *Library) views() *searchViews {
	key := weak.Make(l)
	if vs, ok := libraryViews.Load(key); ok {
		return vs.(*searchViews)
	}
	vs, loaded := libraryViews.LoadOrStore(key, &searchViews{byDoc: map[*parsedDoc]*searchView{}, byPath: map[string]*parsedDoc{}})
	if !loaded {
		runtime.AddCleanup(l, func(k weak.Pointer[Library]) { libraryViews.Delete(k) }, key)
	}
	return vs.(*searchViews)
}

// get returns p's view, building it on first use and dropping the view
// of the version of path it replaces. Safe for concurrent use.
func (vs *searchViews) get(p *parsedDoc, path string) *searchView {
	vs.mu.RLock()
	v := vs.byDoc[p]
	vs.mu.RUnlock()
	if v != nil {
		return v
	}
	v = newSearchView(p.content)
	vs.mu.Lock()
	defer vs.mu.Unlock()
	if got := vs.byDoc[p]; got != nil {
		return got
	}
	if old := vs.byPath[path]; old != nil {
		delete(vs.byDoc, old)
	}
	vs.byDoc[p], vs.byPath[path] = v, p
	return v
}

// lineStarts returns the offset of each line's first byte. Lines split on
// '\n' only, and a trailing '\n' does not start another line.
func lineStarts(content []byte) []int {
	if len(content) == 0 {
		return nil
	}
	starts := make([]int, 1, bytes.Count(content, []byte{'\n'})+1)
	for off := 0; ; {
		i := bytes.IndexByte(content[off:], '\n')
		if i < 0 || off+i+1 >= len(content) {
			return starts
		}
		off += i + 1
		starts = append(starts, off)
	}
}

// lineOf returns the 1-based line holding byte off, which lies at or after
// the start of line from+1 (hits come in order: from is the line of the
// previous one). It gallops forward from there, then bisects, so a run of
// hits on nearby lines costs a few comparisons each.
func (v *searchView) lineOf(off, from int) int {
	s := v.starts
	i, step := from, 1
	for i+step < len(s) && s[i+step] <= off {
		i += step
		step *= 2
	}
	lo, hi := i, min(i+step, len(s)) // s[lo] <= off, and s[hi] > off when hi < len(s)
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if s[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1
}

// bounds returns the byte range of a line of content, without its '\n'.
func (v *searchView) bounds(line int, content []byte) (start, end int) {
	start = v.starts[line-1]
	if line < len(v.starts) {
		return start, v.starts[line] - 1
	}
	end = len(content)
	if end > start && content[end-1] == '\n' {
		end--
	}
	return start, end
}

// line returns the bytes of a line, without its '\n'.
func (v *searchView) line(content []byte, line int) []byte {
	s, e := v.bounds(line, content)
	return content[s:e]
}

func (v *searchView) lowered(content []byte) []byte {
	v.lowerOnce.Do(func() { v.lower, v.special = lowerCopy(content) })
	return v.lower
}

// lowerCopy lowers A-Z, keeping every other byte, so offsets are kept. It
// returns content itself when there is nothing to lower, and whether the
// content holds one of the two non-ASCII runes that fold to ASCII letters.
func lowerCopy(content []byte) ([]byte, bool) {
	special := bytes.Contains(content, []byte("\u212a")) || bytes.Contains(content, []byte("\u017f"))
	i := bytes.IndexFunc(content, func(r rune) bool { return 'A' <= r && r <= 'Z' })
	if i < 0 {
		return content, special
	}
	return lowerASCII(content), special
}

func lowerASCII(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}
