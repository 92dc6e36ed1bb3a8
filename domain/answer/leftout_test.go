package answer

import (
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/wording"
)

func TestWriteLeftOut(t *testing.T) {
	dt := sectioned() // auth: 12 lines of "line\n", body from L4
	other := NewDocText(domain.Document{ID: "b", Path: "backend/b.md", Tokens: 40, HasTokens: true}, []byte("x\n"), domain.Structure{})
	root := "backend"
	top := ""
	sections := func(sel int, ids ...string) []*Chunk {
		var cs []*Chunk
		for _, id := range ids {
			sec, _ := FindSection(dt.Structure, id)
			cs = append(cs, &Chunk{Sel: sel, Doc: dt, Kind: SectionChunk, Section: id, From: sec.Start, To: sec.End, Code: true})
		}
		return cs
	}
	head := func(budget, used, chunks, tokens int) string {
		return "\nLeft out (over max_tokens=" + itoa(budget) + "; ~" + itoa(used) + " tokens returned): " + itoa(chunks) + " " + wording.Plural(chunks, "chunk", "chunks") + ", ~" + itoa(tokens) + " tokens. Send these selectors in another call, or raise max_tokens (0 = no limit):\n"
	}
	cases := []struct {
		name   string
		chunks func() []*Chunk
		want   string
	}{
		{"nothing left out", func() []*Chunk {
			return []*Chunk{{Doc: dt, Kind: WholeDoc, From: 4, To: 12, Code: true, State: Kept}}
		}, ""},
		{"a whole doc with its settings", func() []*Chunk {
			return []*Chunk{{Doc: dt, Kind: WholeDoc, From: 4, To: 12, Images: true, Code: false, State: LeftOut, Tokens: 7}}
		}, head(100, 90, 1, 7) + "- {\"doc\": \"auth\", \"include_images\": true, \"include_code\": false} (~7 tokens)\n"},
		{"consecutive sections merge", func() []*Chunk {
			cs := sections(0, "intro", "tokens/rotation")
			for _, c := range cs {
				c.State, c.Tokens = LeftOut, 3
			}
			return cs
		}, head(100, 90, 2, 6) + "- {\"doc\": \"auth\", \"sections\": [\"intro\",\"tokens/rotation\"]} (~6 tokens)\n"},
		{"the rest of a cut chunk first", func() []*Chunk {
			return []*Chunk{
				{Doc: dt, Kind: WholeDoc, From: 4, To: 12, Code: true, State: Kept, CutTo: 8},
				{Sel: 1, Doc: other, Kind: WholeDoc, From: 1, To: 1, Code: true, State: LeftOut, Tokens: 40},
			}
		}, head(100, 90, 2, 40+domain.EstimateTokens(int64(len("=== auth (backend/auth.md) · L9–12 ===\n")+20))) +
			"- {\"doc\": \"auth\", \"lines\": [9,12]} (~" + itoa(domain.EstimateTokens(int64(len("=== auth (backend/auth.md) · L9–12 ===\n")+20))) + " tokens): continues select[0] (auth, whole doc), cut after L8 to fit max_tokens\n" +
			"- \"b\" (~40 tokens)\n" +
			"As one select list: [{\"doc\": \"auth\", \"lines\": [9,12]}, \"b\"]\n"},
		{"a root left out whole is itself", func() []*Chunk {
			return []*Chunk{
				{Sel: 0, Root: &root, Doc: dt, Kind: WholeDoc, From: 4, To: 12, Code: true, State: LeftOut, Tokens: 5},
				{Sel: 0, Root: &root, Doc: other, Kind: WholeDoc, From: 1, To: 1, Code: true, State: LeftOut, Tokens: 40},
			}
		}, head(100, 90, 2, 45) + "- {\"root\": \"backend\"} (~45 tokens)\n"},
		{"the library root is '.'", func() []*Chunk {
			return []*Chunk{{Root: &top, Doc: other, Kind: WholeDoc, From: 1, To: 1, Code: true, State: LeftOut, Tokens: 40}}
		}, head(100, 90, 1, 40) + "- {\"root\": \".\"} (~40 tokens)\n"},
		{"a root partly returned lists its docs", func() []*Chunk {
			return []*Chunk{
				{Sel: 0, Root: &root, Doc: dt, Kind: WholeDoc, From: 4, To: 12, Code: true, State: Kept},
				{Sel: 0, Root: &root, Doc: other, Kind: WholeDoc, From: 1, To: 1, Code: true, State: LeftOut, Tokens: 40},
			}
		}, head(100, 90, 1, 40) + "- \"b\" (~40 tokens)\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cs := tc.chunks()
			AssignLines(cs)
			var b strings.Builder
			WriteLeftOut(&b, cs, 100, 90)
			if b.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
	t.Run("capped at 100 items", func(t *testing.T) {
		var cs []*Chunk
		for i := 0; i < 101; i++ {
			cs = append(cs, &Chunk{Sel: i, Doc: other, Kind: LinesChunk, From: 1, To: 1, Code: true, State: LeftOut, Tokens: 1})
		}
		// Each chunk names the same line: give every one its own line.
		var b strings.Builder
		for i, c := range cs {
			c.Segments = []Segment{{1, 1, i}}
		}
		WriteLeftOut(&b, cs, 100, 90)
		got := b.String()
		if !strings.HasSuffix(got, "- ... and 1 more: narrow the selectors or raise max_tokens\n") || strings.Contains(got, "As one select list") {
			t.Errorf("got %s", got[len(got)-200:])
		}
	})
}
