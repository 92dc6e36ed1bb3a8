package passage

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Words returns the words of s, lower case: letters, digits and '_' (other
// characters split words), and, for a code name, its parts too
// (generateDigest, generate_digest: generate and digest).
func Words(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		lower := strings.ToLower(w)
		out = append(out, lower)
		if parts := splitIdentifier(w); len(parts) > 1 {
			for _, p := range parts {
				out = append(out, strings.ToLower(p))
			}
		}
	}
	return out
}

// lineTerms is the stems of a line's words, in order; a code span that
// is a symbol alone (`$`, `\`, `**`) is read as the symbol's names, so
// a question's "dollar sign" meets the doc's `$`.
func lineTerms(s string) []string {
	ws := Words(namedSymbols(s))
	for i, w := range ws {
		ws[i] = Stem(w)
	}
	return ws
}

// splitIdentifier splits camelCase, PascalCase and snake_case names into
// their words (HTTPServer: HTTP and Server); a plain word is itself.
func splitIdentifier(w string) []string {
	var parts []string
	start := 0
	rs := []rune(w)
	for i := 1; i < len(rs); i++ {
		switch {
		case rs[i] == '_':
			if i > start {
				parts = append(parts, string(rs[start:i]))
			}
			start = i + 1
		case unicode.IsUpper(rs[i]) && unicode.IsLower(rs[i-1]),
			unicode.IsUpper(rs[i]) && i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]),
			unicode.IsDigit(rs[i]) != unicode.IsDigit(rs[i-1]) && unicode.IsLetter(rs[i-1]) && rs[i-1] != '_':
			if i > start {
				parts = append(parts, string(rs[start:i]))
			}
			start = i
		}
	}
	if start < len(rs) {
		parts = append(parts, string(rs[start:]))
	}
	var out []string
	for _, p := range parts {
		if len(p) >= 2 {
			out = append(out, p)
		}
	}
	return out
}

// Stem cuts common English endings, so "rotated", "rotation" and
// "rotates" meet at "rotat"; it keeps at least four letters (three for
// a plural's s).
func Stem(w string) string {
	w = american(w)
	for _, suf := range []string{"ations", "ation", "ings", "ing", "ions", "ion", "ies", "ied", "ed", "es"} {
		if strings.HasSuffix(w, suf) && utf8.RuneCountInString(w)-len(suf) >= 4 {
			return w[:len(w)-len(suf)]
		}
	}
	if strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && utf8.RuneCountInString(w) >= 4 {
		w = w[:len(w)-1]
	}
	if strings.HasSuffix(w, "e") && utf8.RuneCountInString(w) >= 5 {
		w = w[:len(w)-1] // "override" meets "overriding" at "overrid"
	}
	return w
}

// american spells a British word the American way, so both meet: colour
// and color, behaviour and behavior (-our), initialise and initialize
// (-ise, -ised, -ising, -isation). Applied to the question's words and the
// doc's alike, a word it changes wrongly (premise) only meets itself.
func american(w string) string {
	switch n := len(w); {
	case n >= 6 && strings.HasSuffix(w, "our"):
		return w[:n-2] + "r"
	case n >= 7 && strings.HasSuffix(w, "ours"):
		return w[:n-3] + "rs"
	}
	for _, suf := range []string{"isations", "isation", "ising", "ised", "ises", "ise"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 {
			return w[:len(w)-len(suf)] + "iz" + suf[2:]
		}
	}
	return w
}

// asksForValue reports whether a question asks for a value: a default, a
// limit, a name, a number, a command.
func asksForValue(q string) bool {
	low := " " + strings.ToLower(q) + " "
	if strings.Contains(low, " what happen") || strings.Contains(low, " what does ") && strings.Contains(low, " do ") {
		return false // asks for a behaviour, not a value
	}
	for _, cue := range []string{" which ", " what ", " default", " how many ", " how much ", " how long ", " how big ", " how large ",
		" how often ", " largest ", " smallest ", " maximum ", " minimum ", " max ", " min ", " limit", " longest ",
		" shortest ", " what is the name", " what name", " what command", " which command", " what port", " what value",
		" what version", " what size", " what format", " what type", " what algorithm", " what hash", " what flag",
		" what option", " what key", " what prefix", " what suffix", " what extension", " what status", " what code",
		" how do i call", " called", " named"} {
		if strings.Contains(low, cue) {
			return true
		}
	}
	return false
}

// holdsValue reports whether a line states a value: a number, a code span,
// a quoted name or a key: value pair.
func holdsValue(s string) bool {
	if strings.Contains(s, "`") || strings.Contains(s, "\"") || strings.Contains(s, "'") {
		return true
	}
	for _, r := range s {
		if unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// stopwords say nothing about what is asked for.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be but by can do does did for from has have how i if in into is it its
		me my no not of on or our so that the their them then there these they this those to up us was we were what when where
		which while who whom why will with you your all any each every some such than too very just also should would could
		may might must shall about after again against before below between both during few more most other own same
		through under until off over out only nor find show tell give get where's what's whats use used using want need
		there here get set make does done doing something thing things way ways please happens happen`) {
		stopwords[w] = true
	}
}

// relatedWeight is how much a word the docs use for a question's word
// weighs against a word the question holds.
const relatedWeight = 0.6

// relatedWords are the words developer docs use for what questions ask in
// other words: the question's phrase (padded with spaces, lower case, as
// Words spells it) on the left, the docs' words on the right. General
// usage, not any one library's vocabulary.
var relatedWords = []struct {
	phrase string
	words  []string
}{
	{" out of the box ", []string{"default"}},
	{" unless ", []string{"default"}},
	{" don t ", []string{"default"}},
	{" do not ", []string{"default"}},
	{" if i don ", []string{"default"}},
	{" not set ", []string{"default"}},
	{" on its own ", []string{"default"}},
	{" by itself ", []string{"default"}},
	{" largest ", []string{"max", "maximum", "limit"}},
	{" biggest ", []string{"max", "maximum", "limit"}},
	{" longest ", []string{"max", "maximum", "limit"}},
	{" at most ", []string{"max", "maximum", "limit"}},
	{" how big ", []string{"size", "max", "maximum", "limit"}},
	{" how large ", []string{"size", "max", "maximum", "limit"}},
	{" how long ", []string{"length", "duration", "ttl", "expire"}},
	{" how many ", []string{"number", "count"}},
	{" smallest ", []string{"min", "minimum"}},
	{" shortest ", []string{"min", "minimum"}},
	{" at least ", []string{"min", "minimum"}},
	{" lifetime ", []string{"expire", "expiry", "age", "ttl"}},
	{" expiry ", []string{"ttl", "expire"}},
	{" expire ", []string{"ttl", "expiry"}},
	{" undo ", []string{"rollback", "revert", "down"}},
	{" undoes ", []string{"rollback", "revert", "down"}},
	{" revert ", []string{"rollback", "down"}},
	{" hash ", []string{"digest"}},
	{" digest ", []string{"hash"}},
	{" payload ", []string{"body", "size"}},
	{" identifier ", []string{"id"}},
	{" characters ", []string{"length"}},
	{" twice ", []string{"reuse", "again"}},
	{" again ", []string{"reuse"}},
	{" throws ", []string{"error"}},
	{" fails ", []string{"error"}},
	{" dummy ", []string{"placeholder"}},
	{" picture ", []string{"image"}},
	{" pictures ", []string{"images"}},
	{" force ", []string{"override"}},
	{" called ", []string{"name"}},
	{" leave out ", []string{"exclude", "omit"}},
	{" at the same time ", []string{"concurrency", "concurrent", "simultaneously", "parallel"}},
	{" remove ", []string{"delete"}},
	{" delete ", []string{"remove"}},
	{" port ", []string{"listen", "localhost"}},
}

// relatedTo returns the docs' words for the phrases a question holds.
func relatedTo(padded string) []string {
	var out []string
	for _, r := range relatedWords {
		if strings.Contains(padded, r.phrase) {
			out = append(out, r.words...)
		}
	}
	return out
}

// symbolNames are the words a question uses for a symbol the docs write
// in a code span.
var symbolNames = map[string]string{
	"$": "dollar", "\\": "backslash", "/": "slash", "*": "asterisk star wildcard", "**": "double star globstar",
	"~": "tilde", "^": "caret", "&": "ampersand", "|": "pipe", "#": "hash pound", "@": "at", "%": "percent",
	"!": "exclamation bang negation", "?": "question mark", ";": "semicolon", ":": "colon", "_": "underscore",
	"-": "hyphen dash", "--": "double dash", ".": "dot period", ",": "comma", "+": "plus", "=": "equals equal",
}

// namedSymbols returns s with each code span that holds only a symbol
// (symbolNames) replaced by the symbol's names, in place.
func namedSymbols(s string) string {
	if !strings.Contains(s, "`") {
		return s
	}
	var b strings.Builder
	rest := s
	for {
		i := strings.IndexByte(rest, '`')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i+1:], '`')
		if j < 0 {
			break
		}
		span := strings.TrimSpace(rest[i+1 : i+1+j])
		b.WriteString(rest[:i])
		if names, ok := symbolNames[span]; ok {
			b.WriteString(" " + names + " ")
		} else {
			b.WriteString(rest[i : i+j+2])
		}
		rest = rest[i+j+2:]
	}
	b.WriteString(rest)
	return b.String()
}

// quotedCallBoost is how much more a line weighs for each call the
// question quotes that it writes as it is.
const quotedCallBoost = 1.5

// maxQuotedCall bounds the parentheses of a quoted call, in runes, so that
// reading a question stays linear in its length.
const maxQuotedCall = 200

// quotedCalls returns the calls a question quotes, folded (foldCode): a
// name, possibly dotted, and its balanced parentheses with what is in
// them (fn('a', 'b'), fn.whenCalledWith('a').mockReturnValue(1)). A
// question that pastes code asks about that code: the doc's line that
// writes it is about it too.
func quotedCalls(text string) []string {
	var out []string
	rs := []rune(text)
	isName := func(r rune) bool {
		return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '$' || r == '.'
	}
	for i := 0; i < len(rs); i++ {
		if !isName(rs[i]) || i > 0 && isName(rs[i-1]) {
			continue
		}
		j := i
		calls := 0
		for {
			for j < len(rs) && isName(rs[j]) {
				j++
			}
			if j >= len(rs) || rs[j] != '(' || j == i {
				break
			}
			depth, k := 0, j
			for ; k < len(rs) && k-j < maxQuotedCall; k++ {
				if rs[k] == '(' {
					depth++
				} else if rs[k] == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if k >= len(rs) || k-j >= maxQuotedCall {
				break // unbalanced or too long to be a quoted call
			}
			j = k + 1
			calls++
		}
		if calls > 0 {
			if c := foldCode(string(rs[i:j])); len(c) >= 6 {
				out = append(out, c)
			}
			i = j - 1
		}
	}
	return out
}

// quotedCode is the code a question quotes, each once: its calls and its
// commands.
func quotedCode(text string) []string {
	out := quotedCalls(text)
	for _, c := range quotedCommands(text) {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// quotedCommands returns the commands a question writes out, folded
// (foldCode): each flag (-g, --frozen-lockfile) with the one and the two
// words before it ("install -g", "pnpm install -g"), and each code span.
// A line that writes the command as the question does is about it.
func quotedCommands(text string) []string {
	var out []string
	fields := strings.Fields(text)
	for i, f := range fields {
		f = strings.TrimRight(f, ",.;:?!)")
		if len(f) < 2 || f[0] != '-' || !(unicode.IsLetter(rune(f[len(f)-1])) || unicode.IsDigit(rune(f[len(f)-1]))) {
			continue
		}
		for back := 1; back <= 2 && i-back >= 0; back++ {
			words := append(slices.Clone(fields[i-back:i]), f)
			if c := foldCode(strings.Join(words, " ")); len(c) >= 6 && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	for rest := text; ; {
		i := strings.IndexByte(rest, '`')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i+1:], '`')
		if j < 0 {
			break
		}
		if c := foldCode(rest[i+1 : i+1+j]); len(c) >= 6 && !slices.Contains(out, c) {
			out = append(out, c)
		}
		rest = rest[i+j+2:]
	}
	return out
}

// foldCode lower-cases s and drops its white space and quote marks, so a
// call quoted as fn("a", "b") meets a doc's fn('a','b').
func foldCode(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsSpace(r), r == '\'', r == '"', r == '`':
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// defaultLineBoost is how much more a line that states a default weighs,
// when the question asks for one, as lines are chosen (not as sections
// are ranked: weighed there too, it moved sections and lost an answer).
// Chosen on the fact eval's tune sets: 1.5 gained one fact in ranked
// search only, 2 one each way.
const defaultLineBoost = 2.0

// statesDefault reports whether a line states a default: a "Default:"
// label (a setting's list, a table's column), "defaults to", "default
// is", "(default", "by default".
func statesDefault(line string) bool {
	low := strings.ToLower(strings.NewReplacer("*", "", "_", "").Replace(line))
	if !strings.Contains(low, "default") || strings.Contains(low, "export default") {
		return false
	}
	for _, p := range []string{"default:", "defaults to", "default is", "(default", "default value", "by default"} {
		if strings.Contains(low, p) {
			return true
		}
	}
	return false
}

// commandLineBoost is how much more a line holding a command weighs, as
// lines are chosen, when the question asks for one. Chosen on the fact
// eval's tune sets (1.5 and 2 gained the same fact).
const commandLineBoost = 1.5

// asksForCommand reports whether a question asks for a command or a flag
// ("what command actually deploys", "which command-line switch").
func asksForCommand(q string) bool {
	low := " " + strings.ToLower(q) + " "
	for _, cue := range []string{" what command", " which command", " what cli ", " which cli ", " command-line switch", " command line switch", " what do i run", " what should i run", " which flag", " what flag", " cli flag", " cli option"} {
		if strings.Contains(low, cue) {
			return true
		}
	}
	return false
}

// holdsCommand reports whether a line holds a code span that reads as a
// command: a lower-case word, then up to five more (npx wrangler deploy,
// pnpm install --frozen-lockfile), or a long flag (--no-file-parallelism).
func holdsCommand(s string) bool {
	for rest := s; ; {
		i := strings.IndexByte(rest, '`')
		if i < 0 {
			return false
		}
		j := strings.IndexByte(rest[i+1:], '`')
		if j < 0 {
			return false
		}
		span := strings.TrimSpace(rest[i+1 : i+1+j])
		rest = rest[i+j+2:]
		if strings.HasPrefix(span, "--") && len(span) > 3 {
			return true
		}
		f := strings.Fields(span)
		if len(f) >= 2 && len(f) <= 6 && isCommandWord(f[0]) {
			return true
		}
	}
}

// isCommandWord reports whether w may name a program: lower case, digits
// and hyphens (npx, vite, create-vite), not a sentence's word or a type.
func isCommandWord(w string) bool {
	for _, r := range w {
		if !(unicode.IsLower(r) || unicode.IsDigit(r) || r == '-') {
			return false
		}
	}
	return len(w) >= 2
}

// caveatLineBoost is how much more a line stating a caveat or a reason
// weighs, as lines are chosen, when the question asks for one. Chosen on
// the fact eval's tune sets: 1.5 gained nothing, 2 one fact each way.
const caveatLineBoost = 2.0

// asksForCaveat reports whether a question asks for a catch, a reason or
// why something still happens ("what's the catch", "why", "still skipped").
func asksForCaveat(q string) bool {
	low := " " + strings.ToLower(q) + " "
	for _, cue := range []string{" catch", " downside", " drawback", " caveat", " gotcha", " pitfall", " why ", " risk", " trade-off", " tradeoff", " still "} {
		if strings.Contains(low, cue) {
			return true
		}
	}
	return false
}

// statesCaveat reports whether a line states a caveat or a reason: "however",
// "note that", "beware", "slower", "because", "this means"...
func statesCaveat(s string) bool {
	low := " " + strings.ToLower(s) + " "
	for _, w := range []string{" however", " note that", " beware", " be aware", " caution", " warning", " keep in mind", " careful", " downside", " drawback", " slower", " limitation", " because ", " precaution", " this means ", " otherwise"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}
