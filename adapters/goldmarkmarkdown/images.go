package goldmarkmarkdown

import (
	"bytes"
	"html"
	"sort"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/librarian/librarian/domain"
)

// Standard images: `![alt](src "title")` and `![alt][ref]` as goldmark's
// CommonMark parser finds them (so none inside code, indented code or an
// HTML comment, and a reference-style image only when its definition
// exists), and `<img src=…>` tags, inline or in HTML blocks. The parser
// reports where each points as written; domain.ResolveImage decides what
// that means.

// mayHoldImage reports whether text may hold a standard image: a "![" that
// does not open an `![[image:` stub, or an "<img" (any case). Paragraphs
// without one need no inline parsing (plain.go), and the cost guard counts
// the ones with one as inline-parsed (guard.go).
func mayHoldImage(text []byte) bool {
	for at := 0; ; {
		i := bytes.IndexAny(text[at:], "!<")
		if i < 0 {
			return false
		}
		at += i
		switch {
		case text[at] == '!' && at+1 < len(text) && text[at+1] == '[' && !bytes.HasPrefix(text[at:], stubOpen):
			return true
		case text[at] == '<' && imgTagAt(text, at):
			return true
		}
		at++
	}
}

// standardImages walks a parsed document for its standard images: image
// nodes, inline raw HTML and HTML blocks. Code is not walked, nor an
// image's alt text (an image inside it is not shown: its alt text is).
func standardImages(doc ast.Node, src []byte) []foundImage {
	var found []foundImage
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.CodeSpan:
			return ast.WalkSkipChildren, nil
		case *ast.Image:
			var alt, title strings.Builder
			writeInlineText(&alt, n, src)
			writeUnescaped(&title, n.Title)
			var dest strings.Builder
			writeUnescaped(&dest, n.Destination)
			found = append(found, foundImage{off: n.Pos(), stub: domain.ImageStub{
				Src: dest.String(), Alt: squeeze(alt.String()), Title: squeeze(title.String())}})
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			segs := n.Segments
			if segs.Len() == 0 {
				break
			}
			from, to := segs.At(0).Start, segs.At(segs.Len()-1).Stop
			found = append(found, htmlImages(src[:to], from)...)
		case *ast.HTMLBlock:
			segs := n.Lines()
			if segs.Len() == 0 {
				break
			}
			from, to := segs.At(0).Start, segs.At(segs.Len()-1).Stop
			if n.HasClosure() {
				to = max(to, n.ClosureLine.Stop)
			}
			found = append(found, htmlImages(src[:to], from)...)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return found
}

// squeeze puts text on one line: runs of white space become one space.
func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

// htmlImages finds the <img> tags of src[from:] that have a src attribute,
// skipping HTML comments, with offsets in src. Attribute values have their
// character references decoded, as a browser reads them; the first of a
// repeated attribute counts, as in HTML.
func htmlImages(src []byte, from int) []foundImage {
	var found []foundImage
	for at := from; at < len(src); {
		i := bytes.IndexByte(src[at:], '<')
		if i < 0 {
			break
		}
		at += i
		if bytes.HasPrefix(src[at:], commentOpen) {
			end := bytes.Index(src[at+len(commentOpen):], commentClose)
			if end < 0 {
				break
			}
			at += len(commentOpen) + end + len(commentClose)
			continue
		}
		if !imgTagAt(src, at) {
			at++
			continue
		}
		attrs, end, ok := imgAttributes(src, at+len("<img"))
		if ok {
			if s, has := attrs["src"]; has {
				found = append(found, foundImage{off: at, stub: domain.ImageStub{
					Src: s, Alt: squeeze(attrs["alt"]), Title: squeeze(attrs["title"])}})
			}
		}
		at = end
	}
	return found
}

var (
	commentOpen  = []byte("<!--")
	commentClose = []byte("-->")
)

// imgTagAt reports whether an <img start tag opens at src[at]: "<img" in
// any case, then white space, '/' or '>' (so "<imgx" is another element).
func imgTagAt(src []byte, at int) bool {
	if len(src)-at < 5 || !bytes.EqualFold(src[at+1:at+4], []byte("img")) {
		return false
	}
	switch src[at+4] {
	case ' ', '\t', '\n', '\r', '\f', '/', '>':
		return true
	}
	return false
}

// imgAttributes reads the attributes of a start tag from src[at] (just
// after its name) to its '>': their names in lower case and their values
// decoded. end is where reading stopped, past the '>' when ok; ok is false
// when the tag does not close (a quote left open), so it is no tag.
func imgAttributes(src []byte, at int) (attrs map[string]string, end int, ok bool) {
	attrs = map[string]string{}
	i := at
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }
	for {
		for i < len(src) && (isSpace(src[i]) || src[i] == '/') {
			i++
		}
		if i >= len(src) {
			return nil, i, false
		}
		if src[i] == '>' {
			return attrs, i + 1, true
		}
		start := i
		for i < len(src) && !isSpace(src[i]) && src[i] != '/' && src[i] != '>' && (src[i] != '=' || i == start) {
			i++
		}
		name := strings.ToLower(string(src[start:i]))
		for i < len(src) && isSpace(src[i]) {
			i++
		}
		value := ""
		if i < len(src) && src[i] == '=' {
			i++
			for i < len(src) && isSpace(src[i]) {
				i++
			}
			if i < len(src) && (src[i] == '"' || src[i] == '\'') {
				q := src[i]
				close := bytes.IndexByte(src[i+1:], q)
				if close < 0 {
					return nil, len(src), false
				}
				value = string(src[i+1 : i+1+close])
				i += close + 2
			} else {
				vs := i
				for i < len(src) && !isSpace(src[i]) && src[i] != '>' {
					i++
				}
				value = string(src[vs:i])
			}
		}
		if _, dup := attrs[name]; !dup {
			attrs[name] = html.UnescapeString(value)
		}
	}
}

// lineImages finds the standard images of one line for the plain heading
// scan (scan.go), in one pass: inline `![alt](src "title")` whose alt text
// holds no ']' and whose whole markup is on the line, and <img> tags that
// close on it, outside HTML comments that close on it. Reference-style images need the document's definitions and
// are not found. off is the line's offset in the file.
func lineImages(line []byte, off int) []foundImage {
	var found []foundImage
	nextClose := -1 // the first ']' at or after the last alt text's start
	for at := 0; at < len(line); {
		i := bytes.IndexAny(line[at:], "!<")
		if i < 0 {
			break
		}
		at += i
		if line[at] == '<' {
			if bytes.HasPrefix(line[at:], commentOpen) {
				end := bytes.Index(line[at+len(commentOpen):], commentClose)
				if end < 0 {
					break
				}
				at += len(commentOpen) + end + len(commentClose)
				continue
			}
			if !imgTagAt(line, at) {
				at++
				continue
			}
			attrs, end, ok := imgAttributes(line, at+len("<img"))
			if s, has := attrs["src"]; ok && has {
				found = append(found, foundImage{off: off + at, stub: domain.ImageStub{
					Src: s, Alt: squeeze(attrs["alt"]), Title: squeeze(attrs["title"])}})
			}
			at = end
			continue
		}
		if at+1 >= len(line) || line[at+1] != '[' || bytes.HasPrefix(line[at:], stubOpen) {
			at++
			continue
		}
		if nextClose < at+2 {
			// Alt texts start further and further on: the search for their
			// ']' moves only forward, so the pass stays linear. len(line)
			// stands for "none left".
			nextClose = len(line)
			if c := bytes.IndexByte(line[at+2:], ']'); c >= 0 {
				nextClose = at + 2 + c
			}
		}
		if nextClose+1 >= len(line) || line[nextClose+1] != '(' {
			at += 2
			continue
		}
		dest, title, end, ok := inlineDestination(line, nextClose+2)
		if ok {
			var alt, d, t strings.Builder
			writeUnescaped(&alt, line[at+2:nextClose])
			writeUnescaped(&d, dest)
			writeUnescaped(&t, title)
			found = append(found, foundImage{off: off + at, stub: domain.ImageStub{
				Src: d.String(), Alt: squeeze(alt.String()), Title: squeeze(t.String())}})
		}
		at = max(end, at+2)
	}
	return found
}

// inlineDestination reads what follows "](" of an inline image on one
// line: spaces, a destination (<…>, or up to a space or ')', a backslash
// escaping the next byte), then optionally a title in quotes, then ')'.
// end is where reading stopped.
func inlineDestination(line []byte, i int) (dest, title []byte, end int, ok bool) {
	skip := func() {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
	}
	skip()
	if i < len(line) && line[i] == '<' {
		c := bytes.IndexByte(line[i+1:], '>')
		if c < 0 {
			return nil, nil, len(line), false
		}
		dest = line[i+1 : i+1+c]
		i += c + 2
	} else {
		start := i
		for i < len(line) && line[i] != ' ' && line[i] != '\t' && line[i] != ')' {
			if line[i] == '\\' && i+1 < len(line) {
				i++
			}
			i++
		}
		dest = line[start:min(i, len(line))]
	}
	skip()
	if i < len(line) && (line[i] == '"' || line[i] == '\'') {
		c := bytes.IndexByte(line[i+1:], line[i])
		if c < 0 {
			return nil, nil, len(line), false
		}
		title = line[i+1 : i+1+c]
		i += c + 2
		skip()
	}
	if i >= len(line) || line[i] != ')' {
		return nil, nil, i, false
	}
	return dest, title, i + 1, true
}

// mergeImages puts both kinds of references in document order, numbering
// each with its line.
func mergeImages(lines lineIndex, lists ...[]foundImage) []domain.ImageStub {
	var all []foundImage
	for _, l := range lists {
		all = append(all, l...)
	}
	if len(all) == 0 {
		return nil
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].off < all[j].off })
	out := make([]domain.ImageStub, len(all))
	for i, f := range all {
		out[i] = f.stub
		if out[i].Line == 0 {
			out[i].Line = lines.line(f.off)
		}
	}
	return out
}
