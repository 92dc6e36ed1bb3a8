package appfx_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// factAnswer is one question's answer as the fact eval scores it, for
// comparing a run with an earlier one (FACT_BASE).
type factAnswer struct {
	passed bool
	bytes  int
}

// factKey names an answer: its split, way of asking and question.
func factKey(split, way, id string) string { return split + "/" + way + "/" + id }

// readFactDump reads a FACT_DUMP file (a JSON object a line) into
// answers by factKey.
func readFactDump(path string) (map[string]factAnswer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]factAnswer{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for n := 1; sc.Scan(); n++ {
		var row struct {
			Split, Way, ID, Answer string
			Passed                 bool
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", path, n, err)
		}
		out[factKey(row.Split, row.Way, row.ID)] = factAnswer{row.Passed, len(row.Answer)}
	}
	return out, sc.Err()
}

// compareFacts says, per split and way, which questions a run holds the
// fact for that the base run did not, and the reverse, and how much the
// answers of the questions both asked grew in bytes. A held-out
// question is counted, never named: whoever tunes does not read them.
func compareFacts(base, now map[string]factAnswer, splits []string) string {
	var b strings.Builder
	for _, split := range splits {
		for _, way := range []string{"ask", "ranked"} {
			prefix := split + "/" + way + "/"
			var gained, lost []string
			baseBytes, nowBytes := 0, 0
			for k, a := range now {
				id, ok := strings.CutPrefix(k, prefix)
				if !ok {
					continue
				}
				was, ok := base[k]
				if !ok {
					continue
				}
				baseBytes += was.bytes
				nowBytes += a.bytes
				switch {
				case a.passed && !was.passed:
					gained = append(gained, id)
				case was.passed && !a.passed:
					lost = append(lost, id)
				}
			}
			if baseBytes == 0 {
				continue
			}
			slices.Sort(gained)
			slices.Sort(lost)
			fmt.Fprintf(&b, "vs base   %-8s %-7s +%d -%d, answers %+.2f%% in bytes", split, way, len(gained), len(lost),
				100*float64(nowBytes-baseBytes)/float64(baseBytes))
			if split != "heldout" {
				fmt.Fprintf(&b, "; gained: %s; lost: %s", strings.Join(gained, " "), strings.Join(lost, " "))
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

func TestCompareFactsNamesNoHeldOutQuestion(t *testing.T) {
	base := map[string]factAnswer{
		factKey("tune", "ask", "t-1"): {false, 100}, factKey("tune", "ask", "t-2"): {true, 100},
		factKey("heldout", "ask", "h-1"): {false, 100}, factKey("heldout", "ask", "h-2"): {true, 100},
	}
	now := map[string]factAnswer{
		factKey("tune", "ask", "t-1"): {true, 110}, factKey("tune", "ask", "t-2"): {false, 110},
		factKey("heldout", "ask", "h-1"): {true, 90}, factKey("heldout", "ask", "h-2"): {true, 100},
	}
	got := compareFacts(base, now, []string{"tune", "heldout"})
	want := "vs base   tune     ask     +1 -1, answers +10.00% in bytes; gained: t-1; lost: t-2\n" +
		"vs base   heldout  ask     +1 -0, answers -5.00% in bytes\n"
	if got != want {
		t.Errorf("compareFacts:\n%s\nwant:\n%s", got, want)
	}
}
