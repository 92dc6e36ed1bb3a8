// Package mcpresources is the library as MCP resources, for a person in a
// client (an @ mention, an attachment, a resource picker): every doc and
// image (the image index's, by id, and the files the docs' standard
// markdown images show, by library path) is a resource whose URI is built
// from its id, read as
// get_documents returns it whole; templates name a doc, a section, a
// folder's listing, a tag's and an image; completion/complete offers their
// arguments; a subscribed doc's change and the list's are notified (the
// ResourceWatcher); and one prompt asks for an answer with citations. It is
// a driving adapter beside mcpserver, over the same go-sdk server: appfx
// registers both. It imports app/browse, the domain and the go-sdk.
package mcpresources

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/wording"
)

// URI prefixes of the library's resources.
const (
	docURIPrefix     = "librarian://doc/"
	sectionURIPrefix = "librarian://section/"
	folderURIPrefix  = "librarian://folder/"
	tagURIPrefix     = "librarian://tag/"
	imageURIPrefix   = "librarian://image/"
)

// The resource templates, RFC 6570 ({+x} keeps the '/' of ids and folders).
const (
	docTemplate     = docURIPrefix + "{+id}"
	sectionTemplate = sectionURIPrefix + "{section}/{+id}"
	folderTemplate  = folderURIPrefix + "{+folder}"
	tagTemplate     = tagURIPrefix + "{tag}"
	imageTemplate   = imageURIPrefix + "{id}"
)

// resourcesPageSize is how many resources one resources/list page holds.
const resourcesPageSize = 1000

// maxCompletions is how many values completion/complete returns at most.
const maxCompletions = 100

// DocURI is the resource URI of the doc with id id.
func DocURI(id string) string { return docURIPrefix + escapePath(id) }

// SectionURI is the resource URI of a doc's section.
func SectionURI(id, section string) string {
	return sectionURIPrefix + url.PathEscape(section) + "/" + escapePath(id)
}

// escapePath escapes each '/'-separated segment of p, keeping the '/'.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// AddLibraryResources serves the library's docs and images as resources on
// srv: resources/list (paged), the templates and their reads, and the
// answer prompt. Completion is LibraryCompletion's and subscriptions the
// ResourceWatcher's, set in mcpserver.Options.
func AddLibraryResources(srv *mcp.Server, lib *browse.Browser) {
	srv.AddReceivingMiddleware(listResources(lib))
	AddLibraryPrompts(srv)
	for _, t := range resourceTemplates {
		srv.AddResourceTemplate(t, resourceReader(lib))
	}
}

// resourceTemplates are the library's templates, the doc's first.
var resourceTemplates = []*mcp.ResourceTemplate{
	{URITemplate: docTemplate, Name: "doc", Title: "A library doc", MIMEType: "text/markdown",
		Description: "a doc by id, whole, as get_documents returns it"},
	{URITemplate: sectionTemplate, Name: "section", Title: "A section of a doc", MIMEType: "text/markdown",
		Description: "one section (its full id) of a doc"},
	{URITemplate: folderTemplate, Name: "folder", Title: "A folder's listing", MIMEType: "text/plain",
		Description: "list_documents of a folder"},
	{URITemplate: tagTemplate, Name: "tag", Title: "The docs with a tag", MIMEType: "text/plain",
		Description: "list_documents of the docs carrying a tag"},
	{URITemplate: imageTemplate, Name: "image", Title: "An image of the library",
		Description: "an image, as a blob: an image index id, or the library path of a file a doc's markdown image shows"},
}

// resourceReader reads the library's URIs (readResource).
func resourceReader(lib *browse.Browser) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return readResource(ctx, lib, req.Params.URI)
	}
}

// listResources answers resources/list from the catalog, a page of
// resourcesPageSize docs at a time, instead of registering every doc with
// the SDK for every session.
func listResources(lib *browse.Browser) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "resources/list" {
				return next(ctx, method, req)
			}
			start := 0
			if r, ok := req.(*mcp.ListResourcesRequest); ok && r.Params != nil && r.Params.Cursor != "" {
				n, err := decodeCursor(r.Params.Cursor)
				if err != nil {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor: pass the nextCursor of the page before"}
				}
				start = n
			}
			docs, err := lib.Docs(ctx)
			if err != nil {
				return nil, err
			}
			// Images come after the docs, and listing them parses every doc
			// (for the files their markdown images show): only a page that
			// reaches past the docs needs them.
			var images []domain.Image
			if start+resourcesPageSize >= len(docs) {
				if images, err = lib.ImageList(ctx); err != nil {
					return nil, err
				}
			}
			all := make([]*mcp.Resource, 0, len(docs)+len(images))
			for _, d := range docs {
				all = append(all, &mcp.Resource{URI: DocURI(d.ID), Name: d.ID, Title: d.Title, Description: d.Summary,
					MIMEType: "text/markdown", Size: d.Stamp.Size})
			}
			for _, img := range images {
				all = append(all, &mcp.Resource{URI: imageURIPrefix + url.PathEscape(img.ID), Name: img.ID, Title: img.Caption})
			}
			res := &mcp.ListResourcesResult{Resources: []*mcp.Resource{}}
			end := min(start+resourcesPageSize, len(all))
			res.Resources = append(res.Resources, all[min(start, len(all)):end]...)
			if end < len(all) {
				res.NextCursor = encodeCursor(end)
			}
			return res, nil
		}
	}
}

func encodeCursor(n int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("docs:" + strconv.Itoa(n)))
}

func decodeCursor(c string) (int, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, err
	}
	rest, ok := strings.CutPrefix(string(b), "docs:")
	n, err := strconv.Atoi(rest)
	if !ok || err != nil || n < 0 {
		return 0, errors.New("not a cursor of this server")
	}
	return n, nil
}

// readResource reads a library URI: a doc or a section as get_documents
// returns it whole, a folder's or a tag's listing. A URI that names
// nothing in the library, or a path outside it, is not found.
func readResource(ctx context.Context, lib *browse.Browser, uri string) (*mcp.ReadResourceResult, error) {
	if rest, isImage := strings.CutPrefix(uri, imageURIPrefix); isImage {
		id, err := url.PathUnescape(rest)
		if err != nil || id == "" {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		data, mime, ok, err := lib.ReadImage(ctx, id)
		if err != nil {
			if errors.Is(err, domain.ErrTooLarge) {
				return nil, fmt.Errorf("image %s is over the library's per-image limit (LIBRARY_MAX_IMAGE_BYTES)", id)
			}
			return nil, err
		}
		if !ok {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Blob: data}}}, nil
	}
	text, mime, ok, err := resourceText(ctx, lib, uri)
	if err != nil {
		if errors.Is(err, domain.ErrNotFound) || errors.Is(err, domain.ErrRefused) || errors.Is(err, domain.ErrInvalidSelector) {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		return nil, err
	}
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: text}}}, nil
}

func resourceText(ctx context.Context, lib *browse.Browser, uri string) (text, mime string, ok bool, err error) {
	unescape := func(s string) (string, bool) {
		u, err := url.PathUnescape(s)
		return u, err == nil && u != ""
	}
	switch {
	case strings.HasPrefix(uri, docURIPrefix):
		id, good := unescape(strings.TrimPrefix(uri, docURIPrefix))
		if !good {
			return "", "", false, nil
		}
		text, ok, err = lib.ReadDoc(ctx, id, "")
		return text, "text/markdown", ok, err
	case strings.HasPrefix(uri, sectionURIPrefix):
		sec, id, found := strings.Cut(strings.TrimPrefix(uri, sectionURIPrefix), "/")
		section, good1 := unescape(sec)
		id, good2 := unescape(id)
		if !found || !good1 || !good2 {
			return "", "", false, nil
		}
		text, ok, err = lib.ReadDoc(ctx, id, section)
		return text, "text/markdown", ok, err
	case strings.HasPrefix(uri, folderURIPrefix), strings.HasPrefix(uri, tagURIPrefix):
		req := browse.ListRequest{Scope: domain.Scope{Depth: -1}}
		if rest, isFolder := strings.CutPrefix(uri, folderURIPrefix); isFolder {
			folder, good := unescape(rest)
			if !good {
				return "", "", false, nil
			}
			if _, err := domain.CleanFolder(folder); err != nil {
				return "", "", false, nil
			}
			req.Root = folder
		} else {
			tag, good := unescape(strings.TrimPrefix(uri, tagURIPrefix))
			if !good {
				return "", "", false, nil
			}
			req.Tags = []string{tag}
		}
		text, err = lib.ListDocuments(ctx, req)
		return text, "text/plain", err == nil, err
	}
	return "", "", false, nil
}

// LibraryCompletion answers completion/complete for the library's
// templates: doc ids (id), the sections of the doc named in the context
// (section), folders (folder) and tags (tag); values starting with what
// was typed first, in order, then the nearest by edit distance, at most
// maxCompletions.
func LibraryCompletion(lib *browse.Browser) func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	return func(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
		p := req.Params
		if p == nil || p.Ref == nil || p.Ref.Type != "ref/resource" {
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}, nil
		}
		var candidates []string
		switch p.Argument.Name {
		case "id":
			docs, err := lib.Docs(ctx)
			if err != nil {
				return nil, err
			}
			for _, d := range docs {
				candidates = append(candidates, d.ID)
			}
		case "section":
			id := ""
			if p.Context != nil {
				id = p.Context.Arguments["id"]
			}
			if id == "" {
				break
			}
			secs, err := lib.Sections(ctx, id)
			if err != nil && !errors.Is(err, domain.ErrNotFound) {
				return nil, err
			}
			for _, s := range secs {
				candidates = append(candidates, s.ID)
			}
		case "folder", "tag":
			folders, tags, err := lib.Folders(ctx)
			if err != nil {
				return nil, err
			}
			candidates = folders
			if p.Argument.Name == "tag" {
				candidates = tags
			}
		}
		values, total := rankCompletions(p.Argument.Value, candidates, maxCompletions)
		return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: total, HasMore: total > len(values)}}, nil
	}
}

// rankCompletions orders candidates for what was typed: those starting
// with it (ignoring case) first, in their order, then the rest that hold
// it, then by edit distance to it; at most limit, and how many matched.
func rankCompletions(typed string, candidates []string, limit int) ([]string, int) {
	low := strings.ToLower(typed)
	type cand struct {
		value string
		rank  int // 0 prefix, 1 contains, 2 by distance
		dist  int
		order int
	}
	var cs []cand
	for i, c := range candidates {
		lc := strings.ToLower(c)
		switch {
		case strings.HasPrefix(lc, low):
			cs = append(cs, cand{c, 0, 0, i})
		case typed != "" && strings.Contains(lc, low):
			cs = append(cs, cand{c, 1, 0, i})
		case typed != "":
			head := lc[:min(len(lc), len(low)+2)]
			if d := wording.EditDistance(low, head); d <= max(2, len(low)/3) {
				cs = append(cs, cand{c, 2, d, i})
			}
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.dist, b.dist), cmp.Compare(a.order, b.order))
	})
	out := make([]string, 0, min(len(cs), limit))
	for _, c := range cs[:min(len(cs), limit)] {
		out = append(out, c.value)
	}
	return out, len(cs)
}
