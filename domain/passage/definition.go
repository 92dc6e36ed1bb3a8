package passage

import (
	"regexp"
	"strings"
	"unicode"
)

// codeNameHeading is a heading that names a code identifier (an option, a
// function, a key: allowShortCircuit, browser.connectTimeout, --no-color,
// max_tokens), not a word of prose: its leading name.
var codeNameHeading = regexp.MustCompile("^`?(-{0,2}[A-Za-z_$][\\w$]*(?:[.-][\\w$]+)*)")

// DefiningLine returns the line of lines from..to (a parent section's own
// lines, before its first subsection) that defines the code name a
// subsection's heading names: the first of them, not in shown, that holds
// the name and is not a heading (a rule's Options list, "* `allowShortCircuit`
// set to `true` will allow ..."), which says what the subsection only shows
// by example. A heading that is one plain word (max, props) names an option
// only where a line quotes it (* `"max"` (default: `Infinity`) ...): there
// the line must. 0 when the heading names no code name or no line holds it.
func DefiningLine(lines []string, heading string, from, to int, shown map[int]bool) int {
	m := codeNameHeading.FindStringSubmatch(heading)
	if m == nil {
		return 0
	}
	name := m[1]
	holds := func(line string) bool { return strings.Contains(line, name) }
	if !isCodeName(name) {
		if strings.TrimSpace(strings.Trim(heading, "`")) != name || strings.HasPrefix(name, "-") {
			return 0
		}
		holds = func(line string) bool { return quotes(line, name) }
	}
	for l := max(from, 1); l <= min(to, len(lines)); l++ {
		line := lines[l-1]
		if shown[l] || strings.HasPrefix(strings.TrimSpace(line), "#") || !holds(line) {
			continue
		}
		return l
	}
	return 0
}

// quotes reports whether line holds name as code or quoted: `max`, "max"
// or `"max"`, as an option list names its keys.
func quotes(line, name string) bool {
	for _, q := range []string{"`" + name + "`", `"` + name + `"`, "'" + name + "'"} {
		if strings.Contains(line, q) {
			return true
		}
	}
	return false
}

// isCodeName reports whether a heading's leading name is a code name, not
// a word: it has a capital after its first letter, or a '_', '.', '-' or
// '$' inside, and four characters at least.
func isCodeName(name string) bool {
	name = strings.TrimLeft(name, "-")
	if len(name) < 4 {
		return false
	}
	for i, r := range name {
		if i > 0 && (unicode.IsUpper(r) || strings.ContainsRune("_.-$", r)) {
			return true
		}
	}
	return false
}
