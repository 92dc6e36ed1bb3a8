package browse_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/domain"
)

var tagsCases = []struct {
	name string
	req  browse.TagsRequest
}{
	{"all", browse.TagsRequest{Depth: -1}},
	{"all-paths", browse.TagsRequest{Depth: -1, IncludePaths: true}},
	{"root-backend-paths", browse.TagsRequest{Root: "backend", Depth: -1, IncludePaths: true}},
	{"root-backend-depth-0", browse.TagsRequest{Root: "backend/", Depth: 0, IncludePaths: true}},
	{"root-backend-depth-1", browse.TagsRequest{Root: "backend", Depth: 1, IncludePaths: true}},
	{"root-guides", browse.TagsRequest{Root: "guides", Depth: -1, IncludePaths: true}},
}

func TestListTagsGolden(t *testing.T) {
	for _, conv := range conventions {
		lib := openSearchLibrary(t, conv, searchLibRoot)
		for _, c := range tagsCases {
			t.Run(conv+"/"+c.name, func(t *testing.T) {
				got, err := browse.New(lib).ListTags(context.Background(), c.req)
				if err != nil {
					t.Fatalf("ListTags(%+v) error: %v", c.req, err)
				}
				checkSearchGolden(t, filepath.Join("../testdata/search/golden", conv, "tags-"+c.name+".txt"), got)
			})
		}
	}
}

// TestListTagsProperties pins what the golden files show: counts with
// inherited tags, most used first, ties by name, paths in path order.
func TestListTagsProperties(t *testing.T) {
	ctx := context.Background()
	for _, conv := range conventions {
		lib := openSearchLibrary(t, conv, searchLibRoot)
		tests := []struct {
			name string
			req  browse.TagsRequest
			want string
		}{
			{"counts, most used first, ties by name", browse.TagsRequest{Depth: -1}, map[string]string{
				// json: faq has no tags; frontmatter: it inherits handbook from index.md.
				"json":        "- handbook (6)\n- backend (4)\n- storage (2)\n- onboarding (1)\n- security (1)",
				"frontmatter": "- handbook (7)\n- backend (4)\n- storage (2)\n- onboarding (1)\n- security (1)",
			}[conv]},
			{"paths under each tag", browse.TagsRequest{Root: "backend/storage", Depth: -1, IncludePaths: true},
				"- backend (2)\n  - backend/storage/caching.md\n  - backend/storage/index.md\n" +
					"- handbook (2)\n  - backend/storage/caching.md\n  - backend/storage/index.md\n" +
					"- storage (2)\n  - backend/storage/caching.md\n  - backend/storage/index.md"},
			{"depth 0 keeps the folder's index.md", browse.TagsRequest{Root: "backend", Depth: 0, IncludePaths: true},
				"- backend (1)\n  - backend/index.md\n- handbook (1)\n  - backend/index.md"},
		}
		for _, tc := range tests {
			t.Run(conv+"/"+tc.name, func(t *testing.T) {
				got, err := browse.New(lib).ListTags(ctx, tc.req)
				if err != nil {
					t.Fatal(err)
				}
				if got != tc.want {
					t.Errorf("ListTags(%+v): got\n%s\nwant\n%s", tc.req, got, tc.want)
				}
			})
		}
	}
}

func TestListTagsNone(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"a.md": "# A\n", "sub/b.md": "---\ntitle: B\n---\n# B\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lib := openSearchLibrary(t, "frontmatter", dir)
	for _, tc := range []struct {
		req  browse.TagsRequest
		want string
	}{
		{browse.TagsRequest{Depth: -1}, "No tags: none of the 2 docs in the library carries one."},
		{browse.TagsRequest{Root: "sub", Depth: -1, IncludePaths: true}, "No tags: none of the 1 doc under sub/ carries one."},
		{browse.TagsRequest{Depth: 1}, "No tags: none of the 1 doc within depth 1 of the library carries one."},
		{browse.TagsRequest{Root: "sub", Depth: 0}, "No tags: none of the 0 docs within depth 0 of sub/ carries one."},
	} {
		got, err := browse.New(lib).ListTags(context.Background(), tc.req)
		if err != nil || got != tc.want {
			t.Errorf("ListTags(%+v) = %q, %v; want %q", tc.req, got, err, tc.want)
		}
	}
}

func TestListTagsErrors(t *testing.T) {
	lib := openSearchLibrary(t, "json", searchLibRoot)
	for _, tc := range []struct {
		req  browse.TagsRequest
		is   error
		want string
	}{
		{browse.TagsRequest{Root: "nosuch", Depth: -1}, domain.ErrNotFound, "no folder 'nosuch' in the library"},
		{browse.TagsRequest{Root: "../up", Depth: -1}, domain.ErrRefused, "may not contain '..'"},
	} {
		_, err := browse.New(lib).ListTags(context.Background(), tc.req)
		if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ListTags(%+v) error = %v, want %v containing %q", tc.req, err, tc.is, tc.want)
		}
	}
}
