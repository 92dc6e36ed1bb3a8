package sqlitesectionindex

import (
	"strings"
	"testing"
)

// A question's adjacent plain words are its near pairs; code, a code
// name's parts and a repeated word make none.
func TestMatchTermsNearPairs(t *testing.T) {
	for q, want := range map[string]string{
		"how long will the browser connect back?":   `long browser, browser connect, connect back`,
		"set `hookTimeout` for slow hooks":          `slow hooks`,
		"does getRouterName name the router router": `name router`,
		"pnpm": ``,
	} {
		_, _, near := matchTerms(q)
		var got []string
		for _, p := range near {
			got = append(got, p[0]+" "+p[1])
		}
		if got := strings.Join(got, ", "); got != want {
			t.Errorf("matchTerms(%q) near = %s, want %s", q, got, want)
		}
	}
}
