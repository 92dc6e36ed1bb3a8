package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestCheckCapsItsList: check of a folder of many bad files counts every
// problem but lists the first 200 (--max changes it, 0 lists all), then
// says how many more and how to see them; --json holds them all; the exit
// code is 1 whatever is printed.
func TestCheckCapsItsList(t *testing.T) {
	files := map[string]string{}
	for i := range 250 {
		files[fmt.Sprintf("notes/n%03d.md", i)] = "---\ntags: go\n---\n# Note\n"
	}
	lib := searchCLILibraryWith(t, files)
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := runCheck(context.Background(), lib, args, &out, &errOut)
		return code, out.String(), errOut.String()
	}
	items := func(text string) int { return strings.Count(text, "\n- ") }

	code, out, errOut := run()
	if code != 1 || errOut != "" {
		t.Fatalf("check: exit %d, stderr %q", code, errOut)
	}
	if !strings.HasPrefix(out, "250 problems in 250 docs (250 checked):\n") || items(out) != 200 ||
		!strings.HasSuffix(out, "\n… and 50 more problems (librarian check --json lists them all, --max 0 prints them all)\n") {
		t.Errorf("check of 250 bad files: %d items listed, want the count, 200 and a line for the rest:\n%s…%s", items(out), out[:200], out[len(out)-200:])
	}
	if code, out, _ := run("--max", "10"); code != 1 || items(out) != 10 || !strings.Contains(out, "… and 240 more problems") {
		t.Errorf("check --max 10: exit %d, %d items:\n%s", code, items(out), out)
	}
	if code, out, _ := run("--max", "0"); code != 1 || items(out) != 250 || strings.Contains(out, "more problems") {
		t.Errorf("check --max 0: exit %d, %d items", code, items(out))
	}
	code, out, _ = run("--json")
	var rep checkJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 || len(rep.Problems) != 250 || rep.OK || rep.ProblemDocs != 250 {
		t.Errorf("check --json: exit %d, %d problems, %v", code, len(rep.Problems), err)
	}
	if code, _, errOut := run("--max", "-1"); code != 2 || !strings.Contains(errOut, "check: --max: want 0 (every problem) or more, got -1") {
		t.Errorf("check --max -1: exit %d, %q", code, errOut)
	}
}
