package domain

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/librarian/librarian/domain/wording"
)

func TestResolveTargets(t *testing.T) {
	cat := &Catalog{
		Docs: []Document{
			{ID: "auth", Path: "backend/auth.md"},
			{ID: "storage", Path: "backend/storage.md"},
			{ID: "intro", Path: "guides/intro.md"},
		},
		Notes: []string{"backend/broken.md: no id in the frontmatter"},
	}
	type want struct {
		docs  []string // "sel:id" or "sel:id@root"
		notes []string // "sel:prefix"
	}
	cases := []struct {
		name string
		sels []Selector
		want want
	}{
		{"by id", []Selector{{Doc: "auth"}}, want{docs: []string{"0:auth"}}},
		{"by path, dot-slash", []Selector{{Doc: "./guides/intro.md"}}, want{docs: []string{"0:intro"}}},
		{"by path, slash", []Selector{{Doc: "/backend/storage.md"}}, want{docs: []string{"0:storage"}}},
		{"root in path order", []Selector{{Root: "backend", IsRoot: true}}, want{
			docs:  []string{"0:auth@backend", "0:storage@backend"},
			notes: []string{"0:select[0]: root 'backend': the index left a doc out: backend/broken.md"},
		}},
		{"whole library notes index once", []Selector{{Root: ".", IsRoot: true}, {Root: "/", IsRoot: true}}, want{
			docs:  []string{"0:auth@", "0:storage@", "0:intro@", "1:auth@", "1:storage@", "1:intro@"},
			notes: []string{"0:select[0]: root '.': the index left a doc out"},
		}},
		{"unknown root", []Selector{{Root: "nosuch", IsRoot: true}}, want{notes: []string{"0:select[0]: root 'nosuch': "}}},
		{"refused doc", []Selector{{Doc: "backend/broken"}}, want{notes: []string{"0:select[0]: doc 'backend/broken' was left out by the index: backend/broken.md"}}},
		{"unknown doc with hint", []Selector{{Doc: "aut"}}, want{notes: []string{"0:select[0]: unknown doc 'aut': no document has this id or path (did you mean: auth?)"}}},
		{"unknown doc without hint", []Selector{{Doc: "zzz"}, {Doc: "auth"}}, want{
			docs:  []string{"1:auth"},
			notes: []string{"0:select[0]: unknown doc 'zzz': no document has this id or path (list_documents shows every doc)"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			targets, notes := ResolveTargets(cat, tc.sels, Commands{})
			var docs []string
			for _, tg := range targets {
				s := itoa(tg.Sel) + ":" + tg.Doc.ID
				if tg.Root != nil {
					s += "@" + *tg.Root
				}
				docs = append(docs, s)
			}
			if !reflect.DeepEqual(docs, tc.want.docs) {
				t.Errorf("targets = %v, want %v", docs, tc.want.docs)
			}
			if len(notes) != len(tc.want.notes) {
				t.Fatalf("notes = %v, want %v", notes, tc.want.notes)
			}
			for i, n := range notes {
				if got := itoa(n.Sel) + ":" + n.Text; !strings.HasPrefix(got, tc.want.notes[i]) {
					t.Errorf("note %d = %q, want prefix %q", i, got, tc.want.notes[i])
				}
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestMentions(t *testing.T) {
	cases := []struct {
		text, name string
		want       bool
	}{
		{"a/b.md: bad", "a/b.md", true},
		{"xa/b.md: bad", "a/b.md", false},
		{"a/b.md2: bad", "a/b.md", false},
		{"see a/b.md and a/b.md", "a/b.md", true},
	}
	for _, tc := range cases {
		if got := mentions(tc.text, tc.name); got != tc.want {
			t.Errorf("mentions(%q, %q) = %v", tc.text, tc.name, got)
		}
	}
	if !mentionsFolder("backend/x.md: bad", "backend") || mentionsFolder("old-backend/x.md", "backend") {
		t.Error("mentionsFolder")
	}
}

func TestWording(t *testing.T) {
	cases := []struct{ got, want string }{
		{wording.LineSpan(7, 7), "L7"},
		{wording.LineSpan(18, 38), "L18–38"},
		{wording.Plural(1, "line", "lines"), "line"},
		{wording.Plural(0, "line", "lines"), "lines"},
		{wording.FolderName(""), "."},
		{wording.FolderName("a/b"), "a/b"},
	}
	for _, tc := range cases {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	var b strings.Builder
	wording.WriteNotes(&b, nil)
	wording.WriteNotes(&b, []string{"x"})
	if b.String() != "\nNotes:\n- x\n" {
		t.Errorf("WriteNotes = %q", b.String())
	}
	if got := NoteTexts([]SelNote{{-1, "none"}, {2, "b"}, {0, "a"}, {2, "c"}}); !reflect.DeepEqual(got, []string{"a", "b", "c", "none"}) {
		t.Errorf("NoteTexts = %v", got)
	}
}

// TestResolveTargetsQuotesNamesShort: a name is quoted on one line and at
// most MaxQuoted characters, so a doc name with a line break cannot break
// the Notes block (a FuzzGetDocuments finding: select ["\n0"]) and a 50 MB
// selector does not come back as a 50 MB note (issue 14.6).
func TestResolveTargetsQuotesNamesShort(t *testing.T) {
	cat := &Catalog{Docs: []Document{{ID: "auth", Path: "backend/auth.md"}}}
	huge := strings.Repeat("x", 5<<20)
	_, notes := ResolveTargets(cat, []Selector{{Doc: "\n0"}, {Doc: huge}, {Root: huge + "\n", IsRoot: true}, {Root: "a\x00", IsRoot: true}}, Commands{})
	if len(notes) != 4 {
		t.Fatalf("got %d notes, want 4: %v", len(notes), notes)
	}
	for _, n := range notes {
		if strings.ContainsAny(n.Text, "\n\x00") || len(n.Text) > 400 {
			t.Errorf("note not one short line (%d bytes): %.300q", len(n.Text), n.Text)
		}
	}
	if want := `select[0]: unknown doc '\n0': no document`; !strings.HasPrefix(notes[0].Text, want) {
		t.Errorf("got %q, want it to start %q", notes[0].Text, want)
	}
	if want := "…' (5242880 bytes in all): no document has this id or path"; !strings.Contains(notes[1].Text, want) {
		t.Errorf("got %.300q, want it to hold %q", notes[1].Text, want)
	}
}
