package passage

import "testing"

// TestStopLists pins what each list is for: the line scorer's long list
// passes over a question's filler words; an index's short list keeps the
// words questions turn on; connectives are PostgreSQL's extra words only.
func TestStopLists(t *testing.T) {
	for _, c := range []struct {
		word                    string
		stop, query, connective bool
	}{
		{"the", true, true, false},
		{"show", true, false, false},
		{"happens", true, false, false},
		{"not", true, false, false},
		{"only", true, false, false},
		{"been", false, false, true},
		{"because", false, false, true},
		{"doesn", false, false, true},
		{"timeout", false, false, false},
	} {
		if got := Stopword(c.word); got != c.stop {
			t.Errorf("Stopword(%q) = %v, want %v", c.word, got, c.stop)
		}
		if got := QueryStopword(c.word); got != c.query {
			t.Errorf("QueryStopword(%q) = %v, want %v", c.word, got, c.query)
		}
		if got := Connective(c.word); got != c.connective {
			t.Errorf("Connective(%q) = %v, want %v", c.word, got, c.connective)
		}
	}
}
