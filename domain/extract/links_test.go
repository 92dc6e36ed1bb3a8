package extract

import (
	"reflect"
	"strings"
	"testing"

	"github.com/librarian/librarian/domain"
)

func TestExtractLinks(t *testing.T) {
	doc := strings.Join([]string{
		"See [Authentication](../auth.md#rotation) and [caching](caching.md).",          // 1
		"![diagram](../images/fanout.png) ![[image:img-fanout]]",                        // 2
		"[ext](https://example.com/a.md) [mail](mailto:x@y) [top](#ttl-rules)",          // 3
		"Wiki: [[migrations]], [[backend/auth|the auth doc]], [[../../../etc/passwd]].", // 4
		"`[code](not-a-link.md)` [abs](/guides/getting-started.md) [esc](my%20doc.md)",  // 5
		"```",                // 6
		"[in code](code.md)", // 7
		"```",                // 8
		"[ref]: ../../guides/getting-started.md \"Getting started\"",              // 9
		"[deep](../../../outside.md) [nested [brackets]](<folder/with space.md>)", // 10
	}, "\n")
	s := domain.Structure{Lines: 10, CodeBlocks: []domain.CodeBlock{fence("", 6, 8)}}
	got := Links([]byte(doc), s, "backend/storage/caching.md")
	want := []Link{
		{Target: "backend/auth.md", Raw: "../auth.md#rotation", Line: 1},
		{Target: "backend/storage/caching.md", Raw: "caching.md", Line: 1},
		{Target: "backend/storage/migrations", Raw: "migrations", Line: 4, Wiki: true},
		{Target: "backend/storage/backend/auth", Raw: "backend/auth", Line: 4, Wiki: true},
		{Target: "guides/getting-started.md", Raw: "/guides/getting-started.md", Line: 5},
		{Target: "backend/storage/my doc.md", Raw: "my%20doc.md", Line: 5},
		{Target: "guides/getting-started.md", Raw: "../../guides/getting-started.md", Line: 9},
		{Target: "backend/storage/folder/with space.md", Raw: "folder/with space.md", Line: 10},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("links:\n got  %+v\n want %+v", got, want)
	}

	docs := []domain.Document{
		{ID: "auth", Path: "backend/auth.md"},
		{ID: "caching", Path: "backend/storage/caching.md"},
		{ID: "migrations", Path: "backend/storage/migrations.md"},
		{ID: "getting-started", Path: "guides/getting-started.md"},
		{ID: "guides", Path: "guides/index.md"},
	}
	r := NewLinkResolver(docs)
	paths := r.Resolve("backend/storage/caching.md", got)
	wantPaths := []string{"backend/auth.md", "backend/storage/migrations.md", "guides/getting-started.md"}
	if !reflect.DeepEqual(paths, wantPaths) {
		t.Errorf("resolved %v, want %v", paths, wantPaths)
	}
	// A folder link lands on its index.md; a wiki link may name an id.
	more := r.Resolve("x.md", []Link{{Target: "guides/"}, {Target: "nowhere/auth", Raw: "auth", Wiki: true}, {Target: "nope.md"}})
	if want := []string{"guides/index.md", "backend/auth.md"}; !reflect.DeepEqual(more, want) {
		t.Errorf("resolved %v, want %v", more, want)
	}
}

func TestExtractLinksFrontmatterIgnored(t *testing.T) {
	doc := "---\nsee: [x](a.md)\n---\n[y](b.md)\n"
	got := Links([]byte(doc), domain.Structure{Lines: 4, FrontmatterEnd: 3}, "top.md")
	if want := []Link{{Target: "b.md", Raw: "b.md", Line: 4}}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
