// Package textmatch is how a search matches text, with no knowledge of
// documents or libraries, as the standard library keeps regexp apart from its
// users:
//
//   - Compile and Matcher.Scan: a literal (case-folded or not) or an RE2
//     regex matched line by line over a text's Text (line starts and an
//     ASCII-lowered copy), by the cheapest sound way for the query: literal
//     prefilters, a byte set, an Aho-Corasick automaton for many literals
//     (multiliteral.go), a windowed regex scan, or per line;
//   - NewBodyMatcher: a whole-body regex answered by a plan of required
//     literals found in place (regex_plan.go, regex_scan.go), the regex run
//     only on small windows around them;
//   - RequiredLiterals: what every match holds, for an index to narrow by;
//   - Unicode simple case folding without a regexp (IndexFold, ContainsFold,
//     Fold), the RE2 limits explained (RE2Limits), and the bounds of a
//     regex (MaxRegexInsts, FindIndex that stops with its context).
//
// It imports only the standard library.
package textmatch
