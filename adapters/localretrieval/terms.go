package localretrieval

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/librarian/librarian/domain/passage"
)

// queryTerms returns the distinct content words of s, lower case, in order
// (letters, digits and '_'; other characters split words), at most max.
func queryTerms(s string, max int) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		if len(w) < 2 || passage.Stopword(w) || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
		if len(out) == max {
			break
		}
	}
	return out
}

// stem cuts common English endings, so "rotated", "rotation" and
// "rotates" meet at "rotat"; it keeps at least four letters.
func stem(w string) string {
	for _, suf := range []string{"ations", "ation", "ings", "ing", "ions", "ion", "ies", "ed", "es", "s"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 4 {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

// termScore is the share of terms found in text (by stem, ignoring case):
// 0 when none, 1 when all.
func termScore(terms []string, text string) float64 {
	if len(terms) == 0 {
		return 0
	}
	low := strings.ToLower(text)
	n := 0
	for _, t := range terms {
		if startsAWord(low, stem(t)) {
			n++
		}
	}
	return float64(n) / float64(len(terms))
}

// startsAWord reports whether prefix occurs in text at the start of a word
// ("rate" in "rate limits", not in "migrate").
func startsAWord(text, prefix string) bool {
	for from := 0; ; {
		i := strings.Index(text[from:], prefix)
		if i < 0 {
			return false
		}
		at := from + i
		if at == 0 {
			return true
		}
		r, _ := utf8.DecodeLastRuneInString(text[:at])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return true
		}
		from = at + 1
	}
}

// identifierVariants are the ways code might spell a phrase of two to
// four words: "auth middleware" as auth_middleware and authmiddleware
// (names match ignoring case, so the last is also authMiddleware and
// AuthMiddleware; auth-middleware, a doc id, is an entry). A longer phrase
// is a question, not a name.
func identifierVariants(words []string) []string {
	if len(words) < 2 || len(words) > 4 {
		return nil
	}
	return []string{strings.Join(words, "_"), strings.Join(words, "")}
}

// splitName spells a code name as words: snake_case, kebab-case, dotted
// and camelCase parts separated by spaces.
func splitName(name string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.' || r == '/':
			b.WriteByte(' ')
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	return b.String()
}

// identifiersIn returns the words of s that look like code: with '_', '.',
// '/', a leading "--", or a capital after the first letter.
func identifiersIn(s string) []string {
	var out []string
	for _, w := range strings.Fields(s) {
		w = strings.Trim(w, "`'\",;:()[]{}?!")
		if len(w) < 3 {
			continue
		}
		code := strings.ContainsAny(w, "_./") || strings.HasPrefix(w, "--")
		for i, r := range w {
			if i > 0 && unicode.IsUpper(r) {
				code = true
			}
		}
		if code {
			out = append(out, w)
		}
	}
	return out
}
