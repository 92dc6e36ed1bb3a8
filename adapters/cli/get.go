package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/librarian/librarian/app/browse"
	"github.com/librarian/librarian/app/library"
	"github.com/librarian/librarian/domain"
)

// getOptions are get's own flags.
type getOptions struct {
	images, code, json bool
	maxTokens          int
}

func newGetFlags(defaultMaxTokens int) (*flag.FlagSet, *getOptions) {
	fs, o := newFlagSet("get", io.Discard), &getOptions{}
	fs.BoolVar(&o.images, "include-images", false, "")
	fs.BoolVar(&o.code, "include-code", true, "")
	fs.IntVar(&o.maxTokens, "max-tokens", defaultMaxTokens, "")
	fs.BoolVar(&o.json, "json", false, "")
	return fs, o
}

// RunGet runs `librarian get SELECTOR...`: get_documents for a person. Each
// operand is a doc id or path, a JSON selector object
// ('{"doc": "auth", "sections": ["login-flow"]}') or a JSON list of them (as
// the "Left out" block prints). Flags, anywhere among the operands:
// --include-images, --include-code=false (or --include-code false),
// --max-tokens N. It prints the
// tool's text; an image it would send prints as a line naming its file,
// type and size: [image img-x: login.png, image/png, 1234 bytes].
func RunGet(ctx context.Context, lib *library.Library, args []string, stdout, stderr io.Writer) int {
	rep := reporterFor(stderr, args)
	fs, o := newGetFlags(lib.Config().MaxAnswerTokens)
	operands, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		Usage(stdout, "get")
		return 0
	}
	if err != nil {
		return rep.fail(err)
	}
	if len(operands) == 0 {
		return rep.fail(usageError("get", "takes one or more SELECTORs: a doc id or path, or a JSON selector"))
	}
	if o.maxTokens < 0 {
		return rep.fail(usageError("get", "--max-tokens: want 0 (no limit) or more, got %d", o.maxTokens))
	}
	items, err := selectorItems(operands)
	if err != nil {
		return rep.fail(err)
	}
	selectors, err := domain.ParseSelectors(items)
	if err != nil {
		return rep.fail(err)
	}
	ans, err := browse.New(lib).GetDocuments(ctx, browse.GetRequest{
		Select:        selectors,
		IncludeImages: o.images,
		IncludeCode:   o.code,
		MaxTokens:     &o.maxTokens,
	})
	if err != nil {
		return rep.fail(err)
	}
	code := 0
	if len(ans.Unmatched) > 0 {
		code = 1 // nothing found is a finding, as for check: the Notes say why
	}
	if o.json {
		code = rep.writeJSON(stdout, answerJSON(ans, len(selectors)), code)
	} else if _, err := io.WriteString(stdout, ans.String()); err != nil {
		return rep.fail(err)
	}
	if n := len(ans.Unmatched); n > 0 {
		msg := fmt.Errorf("get: %d of %d %s returned nothing (see Notes)", n, len(selectors), plural(len(selectors), "selector", "selectors"))
		if rep.json {
			PrintError(stderr, true, WithKind("not_found", msg), 1)
		} else {
			fmt.Fprintln(stderr, "librarian:", msg)
		}
	}
	return code
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// selectorItems turns operands into get_documents' select items: an operand
// that starts with '{' is one selector object, one that starts with '[' a
// list of items, anything else a doc id or path.
func selectorItems(operands []string) ([]json.RawMessage, error) {
	var items []json.RawMessage
	for i, op := range operands {
		t := strings.TrimSpace(op)
		switch {
		case strings.HasPrefix(t, "{"):
			var obj json.RawMessage
			if err := json.Unmarshal([]byte(t), &obj); err != nil {
				return nil, fmt.Errorf("%w: argument %d is not a valid JSON object: %s", domain.ErrInvalidSelector, i+1, jsonProblem(t, err))
			}
			items = append(items, json.RawMessage(t))
		case strings.HasPrefix(t, "["):
			var list []json.RawMessage
			if err := json.Unmarshal([]byte(t), &list); err != nil {
				return nil, fmt.Errorf("%w: argument %d is not a valid JSON list of selectors: %s", domain.ErrInvalidSelector, i+1, jsonProblem(t, err))
			}
			items = append(items, list...)
		default:
			b, err := json.Marshal(op)
			if err != nil {
				return nil, err
			}
			items = append(items, b)
		}
	}
	return items, nil
}

// jsonProblem words a JSON syntax error for a person: the parser's reason,
// the character where it stopped, and the text up to there, so a missing
// brace or a shell-eaten quote is easy to spot.
func jsonProblem(text string, err error) string {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		at := int(min(max(syntax.Offset, 0), int64(len(text)))) // 1-based: the offset counts the bad character
		hint := ""
		if at == len(text) && strings.HasPrefix(syntax.Error(), "unexpected end") {
			hint = " (a closing bracket, brace or quote is missing)"
		}
		return fmt.Sprintf("%s at character %d%s: %s <-- here", syntax.Error(), at, hint, text[:at])
	}
	return err.Error()
}
