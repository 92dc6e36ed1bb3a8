package browse_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/librarian/librarian/adapters/goldmarkmarkdown"
	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/answer"
)

// FuzzGetDocuments drives get_documents over testdata/get/lib with
// generated selectors (ids, paths, roots, sections, line ranges, overrides,
// and any raw select list the fuzzer finds), both settings and a budget.
// Every answer must be explainable line by line: each line is a header, a
// file line of the chunk's doc in order and returned once per call, a
// placeholder, a fence repair, a marker for lines returned earlier, or part
// of the Overlaps / Notes / Left out blocks; each image follows its stub.
// The budget holds unless one chunk alone is returned, a call that leaves
// something out returns something, and a chunk cut to fit is the last one,
// its rest the Left out block's first selector.
//
//	go test ./app/browse -run=^$ -fuzz=FuzzGetDocuments -fuzztime=3m
func FuzzGetDocuments(f *testing.F) {
	lib := openTestLibrary(f)
	world := loadFuzzWorld(f)
	f.Add([]byte{0, 0, 0, 0, 0}, "", false, true, uint16(0))
	f.Add([]byte{4, 0, 26, 21, 0, 3, 0, 255, 0, 0}, "", true, true, uint16(0))
	f.Add([]byte{4, 4, 3, 11, 0, 2, 0, 0, 0, 0, 4, 1, 12, 5, 0}, `["auth"]`, false, false, uint16(301))
	f.Add([]byte{3, 0, 7, 0, 5, 0, 0, 0, 0, 0, 4, 1, 0, 30, 10}, `[{"doc": "caching", "lines": [10, 20], "include_code": false}]`, true, true, uint16(2))
	f.Add([]byte{2, 0, 0, 0, 0, 4, 5, 8, 9, 15}, `[{"root": "guides"}, {"doc": "gallery", "include_images": true}]`, false, true, uint16(152))
	f.Fuzz(func(t *testing.T, ops []byte, raw string, images, code bool, budget uint16) {
		sels := world.selectors(ops)
		var items []json.RawMessage
		if json.Unmarshal([]byte(raw), &items) == nil && len(items) <= 8 {
			if extra, err := domain.ParseSelectors(items); err == nil {
				sels = append(sels, extra...)
			}
		}
		if len(sels) == 0 {
			return
		}
		maxTokens := 0
		if budget%3 != 0 {
			maxTokens = int(budget % 700)
		}
		ans, err := browse.New(lib).GetDocuments(context.Background(), browse.GetRequest{
			Select: sels, IncludeImages: images, IncludeCode: code, MaxTokens: &maxTokens,
		})
		if err != nil {
			t.Fatalf("valid selectors failed the call: %v", err)
		}
		if err := world.explain(ans); err != nil {
			t.Fatalf("%v\nselect: %s\nanswer:\n%s", err, selectList(sels), ans.String())
		}
	})
}

func selectList(sels []domain.Selector) string {
	var parts []string
	for _, s := range sels {
		parts = append(parts, s.JSON())
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// fuzzWorld is what the fuzzer picks from and checks against: each doc's
// file lines and section ids, read independently of the app.
type fuzzWorld struct {
	docs     []string            // ids, including ones the index leaves out and one it never had
	paths    map[string]string   // id -> path
	lines    map[string][]string // path -> file lines
	sections map[string][]string // id -> full ids and leaves
	roots    []string
}

func loadFuzzWorld(tb testing.TB) *fuzzWorld {
	return loadWorldAt(tb, getLibRoot)
}

// loadWorldAt reads the json-convention library at root as loadFuzzWorld
// reads testdata/get/lib.
func loadWorldAt(tb testing.TB, root string) *fuzzWorld {
	var index struct {
		Documents []struct{ ID, Path string } `json:"documents"`
	}
	b, err := os.ReadFile(filepath.Join(root, "index.json"))
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(b, &index); err != nil {
		tb.Fatal(err)
	}
	w := &fuzzWorld{paths: map[string]string{}, lines: map[string][]string{}, sections: map[string][]string{},
		roots: []string{".", "backend", "backend/storage", "guides/", "nowhere", "/guides"}}
	parser := goldmarkmarkdown.New()
	for _, d := range index.Documents {
		w.docs = append(w.docs, d.ID)
		w.paths[d.ID] = d.Path
		content, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(d.Path)))
		if err != nil {
			continue // missing or escaping: the app notes it
		}
		w.lines[d.Path] = fileLines(content)
		for _, s := range parser.Parse(content).Sections {
			w.sections[d.ID] = append(w.sections[d.ID], s.ID)
			if s.Slug != s.ID && s.Slug != "" {
				w.sections[d.ID] = append(w.sections[d.ID], s.Slug)
			}
		}
	}
	w.docs = append(w.docs, "nope")
	return w
}

// fileLines splits a file into its lines as seed 000 counts them: on '\n'
// only, a trailing '\n' starting no further line.
func fileLines(content []byte) []string {
	if len(content) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(content), "\n"), "\n")
}

// selectors decodes ops, five bytes a selector, into up to 12 selectors.
func (w *fuzzWorld) selectors(ops []byte) []domain.Selector {
	var out []domain.Selector
	for len(ops) >= 5 && len(out) < 12 {
		op := ops[:5]
		ops = ops[5:]
		id := w.docs[int(op[1])%len(w.docs)]
		n := len(w.lines[w.paths[id]])
		var s domain.Selector
		switch op[0] % 6 {
		case 0:
			s.Doc = id
		case 1:
			s.Doc = w.paths[id]
			if s.Doc == "" {
				s.Doc = id + ".md"
			}
		case 2:
			s.Root, s.IsRoot = w.roots[int(op[2])%len(w.roots)], true
		case 3, 4:
			s.Doc = id
			names := append(w.sections[id], "nope")
			for k := 0; k < 1+int(op[3])%3; k++ {
				s.Sections = append(s.Sections, names[(int(op[2])+k*int(op[3]|1))%len(names)])
			}
		case 5:
			s.Doc = id
			from := 1 + int(op[2])%(n+3)
			s.Lines = &domain.LineRange{From: from, To: from + int(op[3])%(n+3)}
		}
		if op[4]&1 != 0 {
			v := op[4]&2 != 0
			s.IncludeImages = &v
		}
		if op[4]&4 != 0 {
			v := op[4]&8 != 0
			s.IncludeCode = &v
		}
		out = append(out, s)
	}
	return out
}

var (
	headerRE    = regexp.MustCompile(`^=== (.+) \(([^()]+)\) · (?:section \S+ · )?(L(\d+)(?:–(\d+))?|empty) ===$`)
	reopenRE    = regexp.MustCompile(`^\[fence re-opened: L(\d+) is inside the (?:\S+ )?code block of L(\d+)(?:–(\d+))?\]$`)
	closedRE    = regexp.MustCompile(`^\[fence closed: the (?:\S+ )?code block of L\d+(?:–\d+)? (?:continues after L\d+|is never closed in the file)\]$`)
	omittedRE   = regexp.MustCompile(`^\[code block omitted: (?:\S+, )?\d+ lines?, L(\d+)(?:–(\d+))?\]$`)
	returnedRE  = regexp.MustCompile(`^\[L(\d+)(?:–(\d+))? already returned above \(select\[\d+\](?:, select\[\d+\])*\)\]$`)
	imageLineRE = regexp.MustCompile(`^\[image (?:omitted: |unknown: |unavailable: )?([^\s:\]]+)[ :\]]`)
	leftOutRE   = regexp.MustCompile(`^Left out \(over max_tokens=(\d+); ~(\d+) tokens returned\): \d+ chunks?, ~\d+ tokens\. `)
	restRE      = regexp.MustCompile(`^- \{"doc": "([^"]+)", "lines": \[(\d+),(\d+)\][^}]*\} \(~\d+ tokens\): continues select\[\d+\] \(.+\), cut (after|inside) L(\d+) to fit max_tokens$`)
	lineCutRE   = regexp.MustCompile(`^\[L(\d+) cut after (\d+) of its (\d+) bytes: the line alone is over max_tokens=\d+; `)
)

// fuzzChunk is the chunk being read: its doc's lines, the next file line
// expected and the last line of its range.
type fuzzChunk struct {
	path   string
	lines  []string
	cursor int
	to     int
}

// explain checks that every line of ans is accounted for (see FuzzGetDocuments).
func (w *fuzzWorld) explain(ans answer.Answer) error {
	type item struct {
		text  string
		image *answer.ImagePart
	}
	var items []item
	for i, p := range ans.Parts {
		if p.Image != nil {
			if i == 0 {
				return fmt.Errorf("the answer starts with an image")
			}
			items = append(items, item{image: p.Image})
			continue
		}
		if !strings.HasSuffix(p.Text, "\n") {
			return fmt.Errorf("part %d does not end a line", i)
		}
		for _, l := range strings.Split(strings.TrimSuffix(p.Text, "\n"), "\n") {
			items = append(items, item{text: l})
		}
	}
	used := map[string]map[int]bool{}
	var c *fuzzChunk
	complete := func() error {
		if c != nil && c.cursor != c.to+1 {
			return fmt.Errorf("chunk of %s ends at line %d, its header says L…%d", c.path, c.cursor-1, c.to)
		}
		return nil
	}
	// stubOnLastLine checks that an image follows the line holding its stub.
	stubOnLastLine := func(id string) error {
		if c == nil || c.cursor < 2 || !strings.Contains(c.lines[c.cursor-2], "![[image:"+id+"]]") {
			return fmt.Errorf("image %s does not follow a line with its stub", id)
		}
		return nil
	}
	tail := false
	var headers []string // each chunk's header: doc id and last line
	leftOut, rests := false, 0
	for i := 0; i < len(items); i++ {
		it := items[i]
		next := ""
		if i+1 < len(items) {
			next = items[i+1].text
		}
		if it.image != nil {
			if tail {
				return fmt.Errorf("image %s after the chunks", it.image.ID)
			}
			if err := stubOnLastLine(it.image.ID); err != nil {
				return err
			}
			if !strings.HasPrefix(it.image.MIME, "image/") || len(it.image.Data) == 0 {
				return fmt.Errorf("image %s: MIME %q, %d bytes", it.image.ID, it.image.MIME, len(it.image.Data))
			}
			continue
		}
		l := it.text
		if tail {
			if m := leftOutRE.FindStringSubmatch(l); m != nil {
				leftOut = true
				budget, _ := strconv.Atoi(m[1])
				returned, _ := strconv.Atoi(m[2])
				if len(headers) == 0 {
					return fmt.Errorf("%q: nothing was returned", l)
				}
				if returned > budget && len(headers) > 1 {
					return fmt.Errorf("%q: over the budget with %d chunks", l, len(headers))
				}
				continue
			}
			if m := restRE.FindStringSubmatch(l); m != nil {
				rests++
				from, _ := strconv.Atoi(m[2])
				cutAt, _ := strconv.Atoi(m[5])
				// The rest starts after the cut line, or at it when cut inside.
				if want := m[1] + " " + m[5]; !leftOut || rests > 1 || headers[len(headers)-1] != want || m[4] == "after" && from <= cutAt || m[4] == "inside" && from != cutAt {
					return fmt.Errorf("%q: the cut chunk is not the last one returned (%q), or is not cut there", l, headers[len(headers)-1])
				}
				continue
			}
			switch {
			case l == "", l == "Overlaps:", l == "Notes:", strings.HasPrefix(l, "- "), strings.HasPrefix(l, "As one select list: ["):
				continue
			}
			return fmt.Errorf("line %q in the closing blocks", l)
		}
		if i == 0 && l == "(nothing returned)" {
			continue
		}
		if m := headerRE.FindStringSubmatch(l); m != nil {
			if err := complete(); err != nil {
				return err
			}
			lines, ok := w.lines[m[2]]
			if !ok {
				return fmt.Errorf("header %q names a doc the library cannot read", l)
			}
			c = &fuzzChunk{path: m[2], lines: lines}
			if m[3] == "empty" {
				c.cursor, c.to = 1, 0
			} else {
				c.cursor, _ = strconv.Atoi(m[4])
				c.to = c.cursor
				if m[5] != "" {
					c.to, _ = strconv.Atoi(m[5])
				}
			}
			if c.cursor < 1 || c.to > len(lines) || c.cursor > c.to+1 {
				return fmt.Errorf("header %q: range outside the file's %d lines", l, len(lines))
			}
			headers = append(headers, fmt.Sprintf("%s %d", m[1], c.to))
			if used[c.path] == nil {
				used[c.path] = map[int]bool{}
			}
			continue
		}
		if c == nil {
			if l == "" && i == 1 && (next == "Overlaps:" || next == "Notes:" || strings.HasPrefix(next, "Left out (over max_tokens=")) {
				tail = true
				continue
			}
			return fmt.Errorf("line %q before any header", l)
		}
		// A file line is the expected line of the file, returned once per call.
		fileLine := func() bool {
			return c.cursor <= c.to && c.lines[c.cursor-1] == l && !used[c.path][c.cursor]
		}
		switch {
		case closedRE.MatchString(next) && isFence(l):
			i++ // a closing repair fence and its note
		case l == "" && !fileLine():
			if err := complete(); err != nil {
				return err
			}
			switch {
			case headerRE.MatchString(next):
			case next == "Overlaps:", next == "Notes:", strings.HasPrefix(next, "Left out (over max_tokens="):
				tail = true
			default:
				return fmt.Errorf("blank line not before a header or a closing block, next %q", next)
			}
		case reopenRE.MatchString(l):
			m := reopenRE.FindStringSubmatch(l)
			if at, _ := strconv.Atoi(m[1]); at != c.cursor {
				return fmt.Errorf("%q: the run starts at L%d", l, c.cursor)
			}
			if !isFence(next) {
				return fmt.Errorf("%q is not followed by a fence: %q", l, next)
			}
			i++
		case omittedRE.MatchString(l):
			m := omittedRE.FindStringSubmatch(l)
			from, _ := strconv.Atoi(m[1])
			to := from
			if m[2] != "" {
				to, _ = strconv.Atoi(m[2])
			}
			if c.cursor < from || c.cursor > to || c.cursor > c.to {
				return fmt.Errorf("%q at L%d", l, c.cursor)
			}
			// The placeholder names the whole block; it stands for the
			// block's lines of this run, which stops at lines returned before.
			if used[c.path][c.cursor] {
				return fmt.Errorf("%q at L%d of %s, returned before", l, c.cursor, c.path)
			}
			for c.cursor <= min(to, c.to) && !used[c.path][c.cursor] {
				used[c.path][c.cursor] = true
				c.cursor++
			}
		case returnedRE.MatchString(l):
			m := returnedRE.FindStringSubmatch(l)
			from, _ := strconv.Atoi(m[1])
			to := from
			if m[2] != "" {
				to, _ = strconv.Atoi(m[2])
			}
			if from != c.cursor || to > c.to {
				return fmt.Errorf("%q at L%d of a chunk ending at L%d", l, c.cursor, c.to)
			}
			for k := from; k <= to; k++ {
				if !used[c.path][k] {
					return fmt.Errorf("%q: L%d of %s was not returned before", l, k, c.path)
				}
			}
			c.cursor = to + 1
		case lineCutRE.MatchString(next) && c.cursor <= c.to && !used[c.path][c.cursor]:
			// The start of a line cut inside, then the marker saying so.
			m := lineCutRE.FindStringSubmatch(next)
			at, _ := strconv.Atoi(m[1])
			kept, _ := strconv.Atoi(m[2])
			total, _ := strconv.Atoi(m[3])
			line := c.lines[c.cursor-1]
			if at != c.cursor || at != c.to || kept != len(l) || total != len(line) || !strings.HasPrefix(line, l) {
				return fmt.Errorf("%q after %q: not the start of L%d of %s, the chunk's last line", next, l, c.cursor, c.path)
			}
			used[c.path][c.cursor] = true
			c.cursor++
			i++
		case fileLine():
			used[c.path][c.cursor] = true
			c.cursor++
		case imageLineRE.MatchString(l):
			if err := stubOnLastLine(imageLineRE.FindStringSubmatch(l)[1]); err != nil {
				return fmt.Errorf("%q: %v", l, err)
			}
		default:
			return fmt.Errorf("line %q is neither L%d of %s nor a header, placeholder, repair or note", l, c.cursor, c.path)
		}
	}
	if tail {
		return nil
	}
	return complete()
}

// isFence reports whether l is a code fence line (indent, ``` or ~~~).
func isFence(l string) bool {
	t := bytes.TrimLeft([]byte(l), " \t>")
	return bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~"))
}

func TestFuzzCheckerCatchesBadAnswers(t *testing.T) {
	w := loadFuzzWorld(t)
	good := "=== migrations (backend/storage/migrations.md) · L1–3 ===\n# Migrations\n\nMigrations are numbered SQL files under `db/migrations`, applied in order.\n"
	if err := w.explain(answer.Answer{Parts: []answer.Part{{Text: good}}}); err != nil {
		t.Fatalf("a correct answer was refused: %v", err)
	}
	bad := map[string]string{
		"changed line":               strings.Replace(good, "numbered", "NUMBERED", 1),
		"missing line":               strings.Replace(good, "\n\n", "\n", 1),
		"short chunk":                strings.Replace(good, "L1–3", "L1–4", 1),
		"repeated chunk":             good + "\n" + good,
		"unknown marker":             good + "[something else]\n",
		"invented header":            "=== x (nowhere.md) · L1 ===\nx\n",
		"left out, nothing returned": "(nothing returned)\n\nLeft out (over max_tokens=5; ~0 tokens returned): 1 chunk, ~30 tokens. Send these selectors in another call, or raise max_tokens (0 = no limit):\n- \"migrations\" (~30 tokens)\n",
		"over the budget": good + "\n=== migrations (backend/storage/migrations.md) · L4–5 ===\n\n## Rollout order\n" +
			"\nLeft out (over max_tokens=5; ~40 tokens returned): 1 chunk, ~30 tokens. Send these selectors in another call, or raise max_tokens (0 = no limit):\n- \"auth\" (~30 tokens)\n",
		"rest of another chunk": good + "\nLeft out (over max_tokens=50; ~20 tokens returned): 1 chunk, ~30 tokens. Send these selectors in another call, or raise max_tokens (0 = no limit):\n" +
			"- {\"doc\": \"migrations\", \"lines\": [5,10]} (~30 tokens): continues select[0] (migrations, whole doc), cut after L4 to fit max_tokens\n",
	}
	for name, text := range bad {
		if err := w.explain(answer.Answer{Parts: []answer.Part{{Text: text}}}); err == nil {
			t.Errorf("%s: the checker accepted\n%s", name, text)
		}
	}
}
