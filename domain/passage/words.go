package passage

import (
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
	ws := Words(namedSymbols(withoutShortcodes(s)))
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
	if base, ok := irregular[w]; ok {
		w = base
	}
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

// irregular are the past forms of verbs that no ending rule meets with
// their base: "took" and "taken" are "take".
var irregular = map[string]string{}

func init() {
	for _, pair := range strings.Fields(`took:take taken:take ran:run wrote:write written:write sent:send kept:keep
		chose:choose chosen:choose threw:throw thrown:throw broke:break broken:break hidden:hide began:begin begun:begin
		caught:catch held:hold fed:feed forgot:forget forgotten:forget froze:freeze frozen:freeze grew:grow grown:grow
		knew:know known:know lost:lose meant:mean paid:pay rose:rise risen:rise saw:see seen:see sold:sell spent:spend
		stood:stand stuck:stick taught:teach thought:think understood:understand wore:wear worn:wear won:win
		drew:draw drawn:draw drove:drive driven:drive ate:eat eaten:eat fell:fall fallen:fall flew:fly flown:fly
		forbade:forbid forbidden:forbid overrode:override overridden:override overwrote:overwrite overwritten:overwrite
		rewrote:rewrite rewritten:rewrite split:split spun:spin struck:strike swore:swear tore:tear torn:tear woke:wake woken:wake`) {
		from, to, _ := strings.Cut(pair, ":")
		irregular[from] = to
	}
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
	{" without ", []string{"default"}},
	// "with no flags" is "without flags" (pnpm config set's default
	// location, ElsewhereLine).
	{" with no ", []string{"default"}},
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
	// Whether a thing may be left out is whether the docs call it
	// required or optional ("- {PLACEMENT} is required and must be ...").
	{" leave out ", []string{"exclude", "omit", "required", "optional"}},
	{" omit ", []string{"required", "optional"}},
	{" at the same time ", []string{"concurrency", "concurrent", "simultaneously", "parallel", "together"}},
	{" both ", []string{"together"}},
	{" remove ", []string{"delete"}},
	{" delete ", []string{"remove"}},
	{" port ", []string{"listen", "localhost"}},
	// Zero written as a word meets the docs' 0 ("rolls is zero": "a `0`"):
	// other numbers in words are more often a count of the question's
	// own things ("two of my rules": tune ranked −1).
	{" zero ", []string{"0"}},
	// What one must do is a rule the docs state with "must" or "required"
	// (tune +1 each way over both indexes, held out the same).
	{" must i ", []string{"must", "required"}},
	{" do i have to ", []string{"must", "required"}},
	{" do i need to ", []string{"must", "required"}},
	{" turn off ", []string{"disable"}},
	{" turn it off ", []string{"disable"}},
	{" switch off ", []string{"disable"}},
	{" turn on ", []string{"enable"}},
	{" turn it on ", []string{"enable"}},
	{" switch on ", []string{"enable"}},
	{" get rid of ", []string{"remove", "disable"}},
	{" folder ", []string{"directory", "dir"}},
	{" folders ", []string{"directories", "dir"}},
	{" speed up ", []string{"performance", "faster"}},
	{" quiet ", []string{"silent", "log"}},
	{" skip ", []string{"ignore", "exclude"}},
	{" casing ", []string{"case", "sensitive", "insensitive"}},
	{" capitalization ", []string{"case", "sensitive", "insensitive"}},
	{" capitalisation ", []string{"case", "sensitive", "insensitive"}},
	{" give back ", []string{"return", "returns", "returned"}},
	{" gives back ", []string{"return", "returns", "returned"}},
	{" hand back ", []string{"return", "returns", "returned"}},
	// A count the question gives its own things ("two of my rules",
	// "several setup files") is the docs' "multiple" ("If multiple
	// selectors have equal specificity"): tune ask +2, ranked +1. Found
	// by pairing each tune question's words with the words its fact's
	// line holds and it lacks (pairs in three questions of two corpora).
	{" two ", []string{"multiple"}},
	{" several ", []string{"multiple"}},
	// Pairs the same mining found, each tune +1 or +2, held out the same:
	// "the dev server" (development), "what does it keep" (store), "which
	// address does it listen on" (host).
	{" dev ", []string{"development"}},
	{" keep ", []string{"store"}},
	{" address ", []string{"host", "localhost"}},
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
	spans := codeSpans(s)
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	at := 0
	for _, sp := range spans {
		if names, ok := symbolNames[strings.TrimSpace(s[sp[0]:sp[1]])]; ok {
			b.WriteString(s[at : sp[0]-1])
			b.WriteString(" " + names + " ")
			at = sp[1] + 1
		}
	}
	b.WriteString(s[at:])
	return b.String()
}

// codeSpans returns where the code spans of a line lie: the byte offsets
// of each one's text, between its backticks. An unclosed backtick opens
// none.
func codeSpans(s string) [][2]int {
	var out [][2]int
	for at := 0; ; {
		i := strings.IndexByte(s[at:], '`')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(s[at+i+1:], '`')
		if j < 0 {
			return out
		}
		out = append(out, [2]int{at + i + 1, at + i + 1 + j})
		at += i + j + 2
	}
}

// withoutShortcodes returns s with each Hugo shortcode (`{{% config_option
// name="otel.javaagent.enabled" %}}`, `{{< tabpane text=true >}}`) reduced
// to its quoted arguments: the shortcode's name and its keys are the doc
// tool's markup (config, option, name, text, true would meet a question
// asking which option or name), what is quoted is what the page says.
func withoutShortcodes(s string) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "{{")
		if i < 0 || i+2 >= len(s) || (s[i+2] != '<' && s[i+2] != '%') {
			b.WriteString(s)
			return b.String()
		}
		closer := "%}}"
		if s[i+2] == '<' {
			closer = ">}}"
		}
		j := strings.Index(s[i+3:], closer)
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		inner := s[i+3 : i+3+j]
		for {
			q := strings.IndexByte(inner, '"')
			if q < 0 {
				break
			}
			e := strings.IndexByte(inner[q+1:], '"')
			if e < 0 {
				break
			}
			b.WriteString(" " + inner[q+1:q+1+e] + " ")
			inner = inner[q+2+e:]
		}
		b.WriteString(" ")
		s = s[i+3+j+3:]
	}
}
