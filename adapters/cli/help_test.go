package cli

import (
	"bytes"
	"flag"
	"sort"
	"strings"
	"testing"
)

// commandFlagSets builds each command's own flag set, as it runs.
var commandFlagSets = map[string]func() *flag.FlagSet{
	"serve":  func() *flag.FlagSet { return newFlagSet("serve", nil) },
	"check":  func() *flag.FlagSet { fs, _ := newCheckFlags(); return fs },
	"ls":     func() *flag.FlagSet { fs, _ := newLsFlags(); return fs },
	"get":    func() *flag.FlagSet { fs, _ := newGetFlags(0); return fs },
	"search": func() *flag.FlagSet { fs, _ := newSearchFlags(); return fs },
	"tags":   func() *flag.FlagSet { fs, _ := newTagsFlags(); return fs },
	"eval":   func() *flag.FlagSet { fs, _ := newEvalFlags(); return fs },
	"index":  func() *flag.FlagSet { fs, _ := newIndexFlags(); return fs },
	"gaps":   func() *flag.FlagSet { fs, _, _ := newGapsFlags(); return fs },
}

// TestEveryFlagIsExplainedWithAnExample: each command's --help explains
// every flag it accepts, with an example that uses that flag, and nothing
// it does not accept.
func TestEveryFlagIsExplainedWithAnExample(t *testing.T) {
	for _, c := range commands {
		build, ok := commandFlagSets[c.name]
		if !ok {
			t.Errorf("command %s has no flag set in this test", c.name)
			continue
		}
		var defined, documented []string
		build().VisitAll(func(f *flag.Flag) { defined = append(defined, f.Name) })
		var help bytes.Buffer
		Usage(&help, c.name)
		for _, f := range c.flags {
			documented = append(documented, f.name)
			if f.text == "" || !strings.Contains(f.example, "--"+f.name) || !strings.HasPrefix(f.example, "librarian "+c.name) {
				t.Errorf("%s --%s: want an explanation and an example of `librarian %s` using the flag, got %+v", c.name, f.name, c.name, f)
			}
			if c.name != "serve" && !strings.Contains(help.String(), "e.g. "+f.example) {
				t.Errorf("librarian %s --help lacks the example of --%s:\n%s", c.name, f.name, help.String())
			}
		}
		sort.Strings(defined)
		sort.Strings(documented)
		if strings.Join(defined, ",") != strings.Join(documented, ",") {
			t.Errorf("%s: flags %v, documented %v", c.name, defined, documented)
		}
	}
}

// TestHelpExplainsTheFlagsMeanings: the meanings a newcomer asked about.
func TestHelpExplainsTheFlagsMeanings(t *testing.T) {
	for cmd, wants := range map[string][]string{
		"ls":     {"the file name counted: 1 = FOLDER's own docs", "ANY of these tags", "--folder FOLDER"},
		"get":    {`'{"doc": "auth", "lines": [43, 50]}'`, `'{"root": "backend"}'`, "--include-code false", "matches nothing is a finding"},
		"search": {"no lookbehind, no backreferences", "QUERY [FOLDER]"},
		"tags":   {"--include-paths"},
	} {
		var help bytes.Buffer
		Usage(&help, cmd)
		for _, want := range wants {
			if !strings.Contains(help.String(), want) {
				t.Errorf("librarian %s --help lacks %q:\n%s", cmd, want, help.String())
			}
		}
	}
}
