package extract

import (
	"regexp"
	"strings"

	"github.com/librarian/librarian/domain"
)

// Names returns the names a document defines or documents, in line
// order, for librarian_locate: its headings; the names defined in its fenced
// code (functions, classes, types, constants, variables, exported names,
// routes such as app.get('/api/users'), config keys such as
// compatibility_flags or --radius-field, command-line flags); and, in its
// prose, file paths and the identifiers written in inline code. Each name
// carries the file's own line and, where a definition has one, the rest of
// the definition as its signature (a heading's is its section id, "§ id").
//
// It is pure and linear in the size of content: every line is looked at a
// bounded number of times by RE2 expressions, and over-long lines are cut.
// The same name of the same kind on the same line is given once.
func Names(content []byte, s domain.Structure) []domain.Name {
	lines := splitLines(content)
	var out []domain.Name
	seen := map[nameKey]bool{}
	add := func(n domain.Name) {
		n.Name = strings.TrimSpace(n.Name)
		if n.Name == "" || len(n.Name) > maxNameLen {
			return
		}
		n.Signature = cutSignature(n.Signature)
		k := nameKey{n.Kind, n.Name, n.Line}
		if seen[k] {
			return
		}
		seen[k] = true
		out = append(out, n)
	}
	// Which lines are code, and in which block's language.
	codeLang := make([]string, len(lines)+2) // by line number; "" for prose
	inCode := make([]bool, len(lines)+2)
	for _, cb := range s.CodeBlocks {
		last := cb.End - 1
		if !cb.Closed {
			last = cb.End
		}
		lang := strings.ToLower(strings.Fields(cb.Info + " x")[0])
		for ln := max(cb.Start, 1); ln <= cb.End && ln <= len(lines); ln++ {
			inCode[ln] = true
			if ln > cb.Start && ln <= last {
				codeLang[ln] = lang
				if lang == "x" {
					codeLang[ln] = "text"
				}
			}
		}
	}
	secIdx := 0
	for i, raw := range lines {
		ln := i + 1
		for secIdx < len(s.Sections) && s.Sections[secIdx].Start <= ln {
			sec := s.Sections[secIdx]
			if sec.Start == ln && sec.Heading != "" && sec.Level > 0 {
				add(domain.Name{Kind: domain.NameHeading, Name: sec.Heading, Line: ln, Signature: "§ " + sec.ID})
			}
			secIdx++
		}
		if ln <= s.FrontmatterEnd {
			continue
		}
		line := raw
		if len(line) > maxLineLen {
			line = line[:maxLineLen]
		}
		switch {
		case codeLang[ln] != "":
			codeNames(line, ln, codeLang[ln], add)
		case inCode[ln]:
			// a fence line
		default:
			proseNames(line, ln, add)
		}
	}
	return out
}

type nameKey struct {
	kind, name string
	line       int
}

const (
	maxNameLen      = 200
	maxSignatureLen = 160
	maxLineLen      = 4096
)

func cutSignature(sig string) string {
	sig = strings.TrimSpace(sig)
	sig = strings.TrimSpace(strings.TrimSuffix(sig, "{"))
	if len(sig) > 0 && sig[len(sig)-1] == ':' && strings.HasPrefix(sig, "(") {
		sig = strings.TrimSpace(sig[:len(sig)-1]) // Python's "def f(x):"
	}
	if len(sig) > maxSignatureLen {
		cut := maxSignatureLen
		for cut > 0 && sig[cut]&0xC0 == 0x80 { // keep whole UTF-8 sequences
			cut--
		}
		sig = sig[:cut] + "…"
	}
	return sig
}

// splitLines splits on '\n' only, as every line number of the library does;
// a trailing '\n' does not start another line.
func splitLines(content []byte) []string {
	text := string(content)
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

// Definitions in code, one expression per shape. Group 1 is the name;
// the signature is what follows the whole match, unless noted.
var (
	reGoFunc     = regexp.MustCompile(`^\s*func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?(\(.*)$`)
	reGoType     = regexp.MustCompile(`^\s*type\s+([A-Za-z_]\w*)\b\s*(.*)$`)
	rePyDef      = regexp.MustCompile(`^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*(\(.*)$`)
	reJSFunc     = regexp.MustCompile(`^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*(\(.*)$`)
	reRustFunc   = regexp.MustCompile(`^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s+([A-Za-z_]\w*)\s*(?:<[^>]*>)?\s*(\(.*)$`)
	reClass      = regexp.MustCompile(`^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?(?:pub\s+)?(?:public\s+|private\s+)?(?:class|struct|enum|trait|interface)\s+([A-Za-z_$][\w$]*)(.*)$`)
	reArrow      = regexp.MustCompile(`^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(\([^)]*\)\s*(?::[^=]+)?=>.*|[A-Za-z_$][\w$]*\s*=>.*|function\b.*)$`)
	reJSConst    = regexp.MustCompile(`^\s*(?:export\s+)?(const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(.*)$`)
	reTSType     = regexp.MustCompile(`^\s*(?:export\s+)?type\s+([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*=\s*(.*)$`)
	reExportList = regexp.MustCompile(`^\s*export\s*\{([^}]*)\}`)
	reModExports = regexp.MustCompile(`^\s*(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=\s*(.*)$`)
	reUpperConst = regexp.MustCompile(`^\s*(?:const\s+|static\s+|final\s+|pub\s+const\s+|#define\s+)?([A-Z][A-Z0-9_]*[A-Z0-9])\s*(?::\s*[^=]+)?(?:=|\s)\s*(.*)$`)
	reRoute      = regexp.MustCompile(`\b(?:app|router|api|server|r|e|g|mux|route|routes|bp|blueprint|fastify)\.(get|post|put|patch|delete|head|options|all|route|handle|handlefunc|use)\s*\(\s*["'` + "`" + `]([^"'` + "`" + `]*)["'` + "`" + `]\s*,?\s*(.*)$`)
	reDecorRoute = regexp.MustCompile(`^\s*@\w+\.(get|post|put|patch|delete|route|api_route)\s*\(\s*["']([^"']+)["'](.*)$`)
	reSQLObject  = regexp.MustCompile(`(?i)^\s*create\s+(?:or\s+replace\s+)?(?:unique\s+)?(table|view|index|type|function)\s+(?:if\s+not\s+exists\s+)?([A-Za-z_][\w.]*)(.*)$`)
	reCSSVar     = regexp.MustCompile(`^\s*(--[A-Za-z0-9][\w-]*)\s*:\s*(.*?);?\s*(?:/\*.*)?$`)
	reConfigKey  = regexp.MustCompile(`^\s*(?:-\s+)?["']?([A-Za-z_][\w.-]*)["']?\s*[:=]\s*(.*)$`)
	reTOMLTable  = regexp.MustCompile(`^\s*\[\[?\s*([A-Za-z_][\w.-]*)\s*\]\]?\s*$`)
	reEnvKey     = regexp.MustCompile(`^\s*(?:export\s+)?([A-Z][A-Z0-9_]*)=(.*)$`)
	reFlag       = regexp.MustCompile(`(?:^|[\s"'=(\[])(--[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])\b`)
)

// configLangs are the code languages whose `key = value` or `key: value`
// lines define config keys.
var configLangs = map[string]bool{
	"toml": true, "yaml": true, "yml": true, "ini": true, "json": true, "jsonc": true, "json5": true,
	"conf": true, "cfg": true, "properties": true, "env": true, "dotenv": true, "hcl": true, "terraform": true,
}

var shellLangs = map[string]bool{
	"sh": true, "bash": true, "shell": true, "zsh": true, "console": true, "shellsession": true,
	"fish": true, "powershell": true, "ps1": true, "cmd": true, "bat": true, "text": true,
}

func codeNames(line string, ln int, lang string, add func(domain.Name)) {
	trimmed := strings.TrimSpace(line)
	if trimmed == "" {
		return
	}
	if m := reRoute.FindStringSubmatch(line); m != nil && strings.HasPrefix(m[2], "/") {
		method := strings.ToUpper(m[1])
		switch method {
		case "ROUTE", "HANDLE", "HANDLEFUNC", "USE":
			method = "ANY"
		}
		sig := strings.TrimSuffix(strings.TrimSpace(m[3]), ";")
		sig = strings.TrimSpace(strings.TrimSuffix(sig, ")"))
		add(domain.Name{Kind: domain.NameRoute, Name: method + " " + m[2], Line: ln, Signature: sig})
	}
	if m := reDecorRoute.FindStringSubmatch(line); m != nil {
		method := strings.ToUpper(m[1])
		if method == "ROUTE" || method == "API_ROUTE" {
			method = "ANY"
		}
		add(domain.Name{Kind: domain.NameRoute, Name: method + " " + m[2], Line: ln, Signature: strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(m[3]), ")"))})
	}
	switch {
	case configLangs[lang]:
		if m := reTOMLTable.FindStringSubmatch(line); m != nil {
			add(domain.Name{Kind: domain.NameConfigKey, Name: m[1], Line: ln})
		} else if m := reConfigKey.FindStringSubmatch(line); m != nil && !strings.HasPrefix(trimmed, "#") && !strings.HasPrefix(trimmed, "//") {
			add(domain.Name{Kind: domain.NameConfigKey, Name: m[1], Line: ln, Signature: strings.TrimSuffix(strings.TrimSpace(m[2]), ",")})
		}
		return
	case lang == "css" || lang == "scss" || lang == "less":
		if m := reCSSVar.FindStringSubmatch(line); m != nil {
			add(domain.Name{Kind: domain.NameConfigKey, Name: m[1], Line: ln, Signature: m[2]})
		}
		return
	case lang == "sql" || lang == "psql" || lang == "postgresql" || lang == "mysql" || lang == "sqlite":
		if m := reSQLObject.FindStringSubmatch(line); m != nil {
			kind := domain.NameType
			if strings.EqualFold(m[1], "function") {
				kind = domain.NameFunction
			}
			add(domain.Name{Kind: kind, Name: m[2], Line: ln, Signature: strings.TrimSpace(m[3])})
		}
		return
	case shellLangs[lang]:
		if m := reEnvKey.FindStringSubmatch(line); m != nil {
			add(domain.Name{Kind: domain.NameConfigKey, Name: m[1], Line: ln, Signature: "=" + m[2]})
		}
		for _, m := range reFlag.FindAllStringSubmatch(line, 16) {
			add(domain.Name{Kind: domain.NameFlag, Name: m[1], Line: ln})
		}
		return
	}
	if strings.HasPrefix(trimmed, "//") || strings.HasPrefix(trimmed, "#") && !strings.HasPrefix(trimmed, "#define") || strings.HasPrefix(trimmed, "*") {
		return // a comment
	}
	for _, def := range []struct {
		re   *regexp.Regexp
		kind string
	}{{reGoFunc, domain.NameFunction}, {rePyDef, domain.NameFunction}, {reJSFunc, domain.NameFunction}, {reRustFunc, domain.NameFunction}} {
		if m := def.re.FindStringSubmatch(line); m != nil {
			add(domain.Name{Kind: def.kind, Name: m[1], Line: ln, Signature: m[2]})
			return
		}
	}
	if m := reClass.FindStringSubmatch(line); m != nil {
		add(domain.Name{Kind: domain.NameClass, Name: m[1], Line: ln, Signature: m[2]})
		return
	}
	if m := reTSType.FindStringSubmatch(line); m != nil {
		add(domain.Name{Kind: domain.NameType, Name: m[1], Line: ln, Signature: "= " + m[2]})
		return
	}
	if m := reGoType.FindStringSubmatch(line); m != nil && lang != "python" && lang != "py" {
		add(domain.Name{Kind: domain.NameType, Name: m[1], Line: ln, Signature: m[2]})
		return
	}
	if m := reArrow.FindStringSubmatch(line); m != nil {
		sig := m[2]
		if i := strings.Index(sig, "=>"); i >= 0 {
			sig = strings.TrimSpace(sig[:i])
		}
		add(domain.Name{Kind: domain.NameFunction, Name: m[1], Line: ln, Signature: sig})
		return
	}
	if m := reJSConst.FindStringSubmatch(line); m != nil {
		kind := domain.NameVariable
		if m[1] == "const" && (isUpperIdent(m[2]) || lang == "go") {
			kind = domain.NameConstant
		}
		add(domain.Name{Kind: kind, Name: m[2], Line: ln, Signature: "= " + strings.TrimSuffix(m[3], ";")})
		return
	}
	if m := reExportList.FindStringSubmatch(line); m != nil {
		for _, part := range strings.Split(m[1], ",") {
			f := strings.Fields(part)
			if len(f) == 0 {
				continue
			}
			name := f[len(f)-1] // `a as b` exports b
			if isIdent(name) {
				add(domain.Name{Kind: domain.NameVariable, Name: name, Line: ln, Signature: "export"})
			}
		}
		return
	}
	if m := reModExports.FindStringSubmatch(line); m != nil {
		add(domain.Name{Kind: domain.NameVariable, Name: m[1], Line: ln, Signature: "= " + m[2]})
		return
	}
	if m := reUpperConst.FindStringSubmatch(line); m != nil && strings.Contains(line, "=") || m != nil && strings.HasPrefix(trimmed, "#define") {
		add(domain.Name{Kind: domain.NameConstant, Name: m[1], Line: ln, Signature: strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(m[2]), "="))})
	}
}

func isUpperIdent(s string) bool {
	hasLetter := false
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			hasLetter = true
		case r >= '0' && r <= '9', r == '_':
		default:
			return false
		}
	}
	return hasLetter
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		ok := r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9'
		if !ok {
			return false
		}
	}
	return true
}

// In prose: inline code that names something, and file paths.
var (
	reInlineCall   = regexp.MustCompile(`^([A-Za-z_$][\w$.]*)\(.*\)$`)
	reInlineUpper  = regexp.MustCompile(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$`)
	reInlineSnake  = regexp.MustCompile(`^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$`)
	reInlineDotted = regexp.MustCompile(`^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+$`)
	// reInlineTerm is a name a list item or a table row defines: a class
	// name, an option, a value (`btn-primary`, `maxAge`, `strict`).
	reInlineTerm   = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*(?:[.:][A-Za-z0-9_-]+)*$`)
	reInlineFlag   = regexp.MustCompile(`^--[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9](?:[ =].*)?$`)
	reInlineFolder = regexp.MustCompile(`^(?:\.{1,2}/|/)?[A-Za-z0-9_@][A-Za-z0-9_.@-]*(?:/[A-Za-z0-9_.@-]+)*/$|^[A-Za-z0-9_@][A-Za-z0-9_.@-]*(?:/[A-Za-z0-9_.@-]+)+$`)
	reFilePath     = regexp.MustCompile(`(?:^|[\s(\[<"'` + "`" + `])((?:\.{1,2}/|/)?[A-Za-z0-9_@][A-Za-z0-9_.@-]*(?:/[A-Za-z0-9_.@-]+)*\.([A-Za-z][A-Za-z0-9]{0,5}))(?:$|[\s)\]>"'` + "`" + `,;:!?]|\.(?:\s|$))`)
)

// fileExtensions are the extensions a bare word must end in to be taken for
// a file name when it has no '/' (so "e.g." and "v1.2" are not files).
var fileExtensions = map[string]bool{
	"md": true, "go": true, "py": true, "js": true, "mjs": true, "cjs": true, "ts": true, "tsx": true, "jsx": true,
	"json": true, "jsonc": true, "toml": true, "yaml": true, "yml": true, "sql": true, "sh": true, "bash": true,
	"css": true, "scss": true, "html": true, "rs": true, "java": true, "kt": true, "rb": true, "php": true,
	"txt": true, "env": true, "ini": true, "cfg": true, "conf": true, "lock": true, "mod": true, "sum": true,
	"vue": true, "svelte": true, "c": true, "h": true, "cpp": true, "hpp": true, "cs": true, "swift": true,
	"xml": true, "csv": true, "png": true, "svg": true, "jpg": true, "gif": true, "proto": true, "graphql": true,
	"tf": true, "dockerfile": true, "gradle": true, "properties": true, "ex": true, "exs": true, "lua": true,
}

func proseNames(line string, ln int, add func(domain.Name)) {
	// A list item or a table row's first cell defines the names in it
	// ("- color: `btn-neutral`, `btn-primary`", "| `maxAge` | number |"):
	// its line, not the heading above, is where they are.
	defines := definingSpans(line)
	for _, span := range inlineCodeSpans(line) {
		code := strings.TrimSpace(span)
		switch {
		case reInlineFlag.MatchString(code):
			add(domain.Name{Kind: domain.NameFlag, Name: strings.FieldsFunc(code, func(r rune) bool { return r == ' ' || r == '=' })[0], Line: ln})
		case reInlineCall.MatchString(code):
			m := reInlineCall.FindStringSubmatch(code)
			add(domain.Name{Kind: domain.NameFunction, Name: m[1], Line: ln, Signature: strings.TrimPrefix(code, m[1])})
		case reInlineFolder.MatchString(code) && !strings.Contains(code, "://"):
			add(domain.Name{Kind: domain.NameFile, Name: code, Line: ln})
		case reInlineUpper.MatchString(code):
			add(domain.Name{Kind: domain.NameConstant, Name: code, Line: ln})
		case reInlineSnake.MatchString(code), reInlineDotted.MatchString(code) && !isFileName(code):
			add(domain.Name{Kind: domain.NameConfigKey, Name: code, Line: ln})
		case defines[span] && len(code) >= 2 && len(code) <= 64 && reInlineTerm.MatchString(code):
			add(domain.Name{Kind: domain.NameTerm, Name: code, Line: ln})
		}
	}
	if !mayHoldPath(line) {
		return
	}
	for _, m := range reFilePath.FindAllStringSubmatchIndex(line, 32) {
		p := line[m[2]:m[3]]
		ext := strings.ToLower(line[m[4]:m[5]])
		if isURLAt(line, m[2]) {
			continue
		}
		if strings.Contains(p, "/") || fileExtensions[ext] {
			add(domain.Name{Kind: domain.NameFile, Name: p, Line: ln})
		}
	}
}

// mayHoldPath is the cheap test before reFilePath: a file path has a '/'
// or a '.' followed by a letter (an extension), which most prose lacks.
func mayHoldPath(line string) bool {
	for i := 0; i < len(line); i++ {
		if c := line[i]; c == '/' || c == '.' && i+1 < len(line) && (line[i+1]|0x20 >= 'a' && line[i+1]|0x20 <= 'z') {
			return true
		}
	}
	return false
}

func isFileName(s string) bool {
	i := strings.LastIndexByte(s, '.')
	return i >= 0 && fileExtensions[s[i+1:]]
}

// isURLAt reports whether the word starting at i is part of a URL
// (scheme://host/... or www.).
func isURLAt(line string, i int) bool {
	j := i
	for j > 0 && line[j-1] != ' ' && line[j-1] != '(' && line[j-1] != '<' && line[j-1] != '"' && line[j-1] != '\t' {
		j--
	}
	word := line[j:]
	if k := strings.IndexAny(word, " )>\t"); k >= 0 {
		word = word[:k]
	}
	return strings.Contains(word, "://") || strings.HasPrefix(line[i:], "www.") || strings.HasPrefix(word, "mailto:")
}

// inlineCodeSpans returns the contents of the line's inline code spans.
func inlineCodeSpans(line string) []string {
	var spans []string
	for _, sp := range codeSpans(line) {
		spans = append(spans, line[sp.textFrom:sp.textTo])
	}
	return spans
}

// codeSpan is one inline code span of a line: from and to bound it with its
// backticks, textFrom and textTo its content.
type codeSpan struct{ from, to, textFrom, textTo int }

// codeSpans finds the line's inline code spans: a run of backticks up to
// the next run of the same length (CommonMark, on one line). Linear: the
// next run of each length is found in one backward pass.
func codeSpans(line string) []codeSpan {
	if strings.IndexByte(line, '`') < 0 {
		return nil
	}
	type run struct{ at, n int }
	var runs []run
	for i := 0; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(line) && line[j] == '`' {
			j++
		}
		runs = append(runs, run{i, j - i})
		i = j
	}
	next := make([]int, len(runs))
	lastOfLen := map[int]int{}
	for k := len(runs) - 1; k >= 0; k-- {
		if j, ok := lastOfLen[runs[k].n]; ok {
			next[k] = j
		} else {
			next[k] = -1
		}
		lastOfLen[runs[k].n] = k
	}
	var spans []codeSpan
	for k := 0; k < len(runs); {
		j := next[k]
		if j < 0 {
			k++
			continue
		}
		spans = append(spans, codeSpan{from: runs[k].at, to: runs[j].at + runs[j].n, textFrom: runs[k].at + runs[k].n, textTo: runs[j].at})
		k = j + 1
	}
	return spans
}

// definingSpans returns the code spans a line defines names with: every
// span of a list item, the spans of a table row's first cell; none for
// other lines.
func definingSpans(line string) map[string]bool {
	t := strings.TrimSpace(line)
	var part string
	switch {
	case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "), strings.HasPrefix(t, "+ "):
		part = t
	case len(t) > 2 && t[0] >= '0' && t[0] <= '9' && (strings.HasPrefix(t[1:], ". ") || strings.HasPrefix(t[1:], ") ")):
		part = t
	case strings.HasPrefix(t, "|"):
		cells := strings.Split(t[1:], "|")
		part = cells[0]
	default:
		return nil
	}
	spans := inlineCodeSpans(part)
	if len(spans) == 0 {
		return nil
	}
	out := make(map[string]bool, len(spans))
	for _, s := range spans {
		out[s] = true
	}
	return out
}
