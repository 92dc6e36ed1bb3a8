package passage

import "strings"

// The project's three stop lists, in one place so that the line scorer, the
// local engine and the two section indexes cannot drift apart: each was a
// copy in its own package before.

// stopwords say nothing about what is asked for: a question's words that
// the line scorer and the local engine pass over ("find", "show", "way").
var stopwords = fieldSet(`a an and are as at be but by can do does did for from has have how i if in into is it its
	me my no not of on or our so that the their them then there these they this those to up us was we were what when where
	which while who whom why will with you your all any each every some such than too very just also should would could
	may might must shall about after again against before below between both during few more most other own same
	through under until off over out only nor find show tell give get where's what's whats use used using want need
	there here get set make does done doing something thing things way ways please happens happen`)

// queryStopwords are English words too common to rank sections by: an
// index drops them from a question unless it has nothing else. The list is
// short on purpose: "not", "only", "all", "before" are what some
// questions turn on, and the index's BM25 already weighs common words low.
var queryStopwords = fieldSet(`a an and are as at be by can do does for from how i if in into is it its me
	my of on or our should so that the their them then there these this to was we were what when where which
	who why will with would you your use using`)

// connectives are the pronouns, auxiliaries and connectives of
// PostgreSQL's English stop list (been, his, but, because, both, each,
// other, than, just) and the letters a contraction leaves (Hono's, don't):
// an index whose stemmer keeps every word drops them from a question too.
var connectives = fieldSet(`s t d m re ve ll don doesn isn aren didn won
	am been being have has had having did doing he him his himself she her hers herself they theirs themselves
	whom those ours ourselves yours yourself yourselves myself itself but because about through here both each
	other some such than just now further any`)

// fieldSet is the set of the space-separated words of a list.
func fieldSet(words string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(words) {
		set[w] = true
	}
	return set
}

// Stopword tells whether a lower-case word says nothing about what a
// question asks for (the line scorer's and the local engine's list).
func Stopword(w string) bool { return stopwords[w] }

// QueryStopword tells whether a section index drops a lower-case word from
// a question it ranks sections for (unless the question has nothing else).
func QueryStopword(w string) bool { return queryStopwords[w] }

// Connective tells whether a lower-case word is a pronoun, auxiliary,
// connective or contraction's leftover: what an index that stems every word
// (no stop list of its own) drops from a question beside QueryStopword's.
func Connective(w string) bool { return connectives[w] }
