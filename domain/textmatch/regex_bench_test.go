package textmatch

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// BenchmarkBodyMatch times BodyMatcher.match per body of the
// side-by-side library (../shared/bench/gen_library.py; skipped when
// absent):
//
//	python3 ../shared/bench/gen_library.py /tmp/lib10k --docs 10000 --seed 1
//	go test ./domain/textmatch -run '^$' -bench BodyMatch -benchtime 20x
//
// "bench/candidates" is what searchDocuments verifies for the benchmark's
// regex: the bodies holding a literal of both alternations (the others the
// index skips); "bench/all" is every body loaded; "rare" is a rare literal
// with assertions, "rare-natural" one with an unbounded tail, and
// "common-near" two common words close together.
func BenchmarkBodyMatch(b *testing.B) {
	bodies := benchBodies(b, 4000)
	const bench = `(?i)\b(rotor|stator|turbine)\b[^.]{0,40}\b(voltage|current)\b`
	var candidates []string
	for _, body := range bodies {
		low := strings.ToLower(body)
		if containsAnyOf(low, "rotor", "stator", "turbine") && containsAnyOf(low, "voltage", "current") {
			candidates = append(candidates, body)
		}
	}
	cases := []struct {
		name, pattern string
		bodies        []string
	}{
		{"bench/candidates", bench, candidates},
		{"bench/all", bench, bodies},
		{"rare", `(?i)\bquillworts?\b`, bodies},
		{"rare-natural", `(?i)letofase\w*`, bodies},
		{"common-near", `(?i)\bdata\b.{0,20}\bfor\b`, bodies},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			re := regexp.MustCompile(c.pattern)
			m := NewBodyMatcher(re)
			ctx := context.Background()
			hits := 0
			var cpu0 time.Duration
			if processCPU != nil {
				cpu0 = processCPU()
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				hits = 0
				for _, body := range c.bodies {
					if m.Match(ctx, body) {
						hits++
					}
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(c.bodies)), "ns/body")
			if processCPU != nil {
				b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(b.N*len(c.bodies)), "cpu-ns/body")
			}
			b.ReportMetric(float64(len(c.bodies)), "bodies")
			b.ReportMetric(float64(hits), "hits")
		})
	}
}

// TestBodyMatchMatchesTheLibrary: on the benchmark library's bodies (when
// there), match answers as the whole-body match for the benchmark's regex
// and others of its kind.
func TestBodyMatchMatchesTheLibrary(t *testing.T) {
	bodies := benchBodies(t, 600)
	patterns := []string{
		`(?i)\b(rotor|stator|turbine)\b[^.]{0,40}\b(voltage|current)\b`,
		`\b(rotor|stator|turbine)\b[^.]{0,40}\b(voltage|current)\b`,
		`(?i)\bquillworts?\b`, `(?i)letofase\w*`, `(?i)(?m)^#+\s*\w+ \w+$`, `(?i)the\s+\w+\s+of`,
		`(?i)\bdata\b.{0,20}\bfor\b`, `(?i)(?:calibration|kernel)[^.]*\.`, `(?i)\w+ing\b`, `(?i)\Aat\b`,
	}
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		m := NewBodyMatcher(re)
		hits := 0
		for _, body := range bodies {
			got, want := m.Match(context.Background(), body), re.MatchString(body)
			if got != want {
				t.Fatalf("%s: the plan says %v, the whole body %v, on:\n%s", p, got, want, body)
			}
			if want {
				hits++
			}
		}
		t.Logf("%-70s %d of %d bodies", p, hits, len(bodies))
	}
}

// processCPU returns the process's CPU time where the system tells it
// (regex_cpu_test.go), else it is nil.
var processCPU func() time.Duration

func containsAnyOf(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// benchBodies loads the bodies (the text after the YAML frontmatter
// block) of up to n docs of the benchmark library, in path order.
func benchBodies(b testing.TB, n int) []string {
	dir := os.Getenv("LIBRARIAN_TS_REGEX_BENCH_LIBRARY")
	if dir == "" {
		dir = "/tmp/lib10k"
	}
	if _, err := os.Stat(filepath.Join(dir, "bench_terms.json")); err != nil {
		b.Skipf("no benchmark library at %s (python3 ../shared/bench/gen_library.py %s --docs 10000 --seed 1)", dir, dir)
	}
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") && d.Name() != "index.md" {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	sort.Strings(paths)
	if len(paths) > n {
		paths = paths[:n]
	}
	bodies := make([]string, 0, len(paths))
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		bodies = append(bodies, benchBody(string(src)))
	}
	return bodies
}

// benchBody is gen_library.py's body_of: the text after the frontmatter.
func benchBody(text string) string {
	if strings.HasPrefix(text, "---\n") {
		if end := strings.Index(text[4:], "\n---"); end >= 0 {
			rest := text[4+end+4:]
			return strings.TrimPrefix(rest, "\n")
		}
	}
	return text
}
