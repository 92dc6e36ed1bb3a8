package appfx_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.uber.org/fx"

	"github.com/librarian/librarian/adapters/postgresdb/postgrestest"
	"github.com/librarian/librarian/app/appfx"
	"github.com/librarian/librarian/app/config"
	"github.com/librarian/librarian/app/engine"
	"github.com/librarian/librarian/app/search"
	"github.com/librarian/librarian/domain"
)

// factCorpora are the libraries the fact questions of testdata/eval/facts
// ask about: each has a set to tune on and a held-out set that is only
// measured.
var factCorpora = []struct {
	name, root string
}{
	{"library", filepath.Join("..", "..", "library")},
	{"examples", filepath.Join("..", "..", "testdata", "librarian-examples", "docs")},
	{"vitest-docs", filepath.Join("..", "..", "testdata", "vitest-docs", "docs")},
	{"vite-docs", filepath.Join("..", "..", "testdata", "vite-docs", "docs")},
	{"prettier-docs", filepath.Join("..", "..", "testdata", "prettier-docs", "docs")},
	{"eslint-docs", filepath.Join("..", "..", "testdata", "eslint-docs", "docs")},
	{"jest-docs", filepath.Join("..", "..", "testdata", "jest-docs", "docs")},
	{"pnpm-docs", filepath.Join("..", "..", "testdata", "pnpm-docs", "docs")},
	{"svelte-docs", filepath.Join("..", "..", "testdata", "svelte-docs", "docs")},
	{"vue-docs", filepath.Join("..", "..", "testdata", "vue-docs", "docs")},
	{"otel-docs", filepath.Join("..", "..", "testdata", "otel-docs", "docs")},
}

// factHeldOutGoal is issue 21's goal for the held-out share, which the
// figures below do not reach yet; factHeldOutFloor is how many held-out
// questions of all the corpora each way of asking answers now, and may
// not fall under: a change that loses held-out facts fails here, one that
// gains raises the floor. The floor is over all the corpora, not each:
// a corpus of 8 questions moves by one on changes that gain elsewhere.
const factHeldOutGoal = 0.90

var factHeldOutFloor = map[string]int{"ask": 343, "ranked": 346}

// factHeldOutFloorPostgres is the same floor for the PostgreSQL index
// (TestFactEvalPostgres): its BM25 is computed in SQL over its own
// vectors (stemming, stop words, weights), so its figures are its own.
var factHeldOutFloorPostgres = map[string]int{"ask": 342, "ranked": 345}

// TestFactEval asks every fact question of every corpus twice, through
// librarian_ask (the local engine) and through ranked search_documents,
// and checks the answer holds the fact (one of any_of, case-insensitive):
// the line that states it, not only its document. The held-out sets, all
// together, gate at factHeldOutFloor; every figure is logged, with the
// median answer size.
//
//	go test ./app/appfx -run TestFactEval -v
//
// It asks the held-out sets; FACT_SETS=tune asks the tune sets alone, for
// deciding a change without seeing the held-out questions' answers, and
// FACT_SETS=all both; FACT_SHOW=id,id logs those
// questions' answers, for seeing why one is missed; FACT_DUMP=file
// writes every answer there, a JSON object a line; FACT_BASE=file (an
// earlier run's FACT_DUMP) logs which questions this run gains and loses
// against it, and how much its answers grew (held-out ones counted, not
// named).
func TestFactEval(t *testing.T) {
	factEval(t, func(string) string { return "off" }, factHeldOutFloor)
}

// TestFactEvalPostgres is TestFactEval over the PostgreSQL section index
// (each corpus in a schema of its own, made afresh), when the tests have a
// server (scripts/postgres-test-server run -- go test ./...): a team's
// shared index answers as well as it is measured to.
func TestFactEvalPostgres(t *testing.T) {
	base := postgrestest.DSN(t)
	factEval(t, func(corpus string) string {
		schema := "fact_" + strings.ReplaceAll(corpus, "-", "_")
		postgrestest.DropSchema(t, base, schema)
		return postgrestest.WithSchema(t, base, schema)
	}, factHeldOutFloorPostgres)
}

// factEval asks the fact questions through the section index indexFor
// names for each corpus (its LIBRARY_INDEX) and gates the held-out
// figures at floor.
func factEval(t *testing.T, indexFor func(corpus string) string, floor map[string]int) {
	// The held-out sets by default (they gate); the tune sets when asked:
	// both at once took app/appfx's tests past go test's ten minutes under
	// -race on two cores.
	splits := []string{"heldout"}
	switch os.Getenv("FACT_SETS") {
	case "tune":
		splits = []string{"tune"}
	case "all":
		splits = []string{"tune", "heldout"}
	case "", "heldout":
	default:
		// Another split's files (a new question set, measured before it
		// joins the tune sets): <corpus>-<split>.jsonl where a corpus has one.
		splits = strings.Split(os.Getenv("FACT_SETS"), ",")
	}
	var summary strings.Builder
	held, asked := map[string]int{}, map[string]int{} // by split/way, over the corpora
	sources := factSources(t)
	whyMissed := map[string]map[string][]string{} // split/way -> kind -> ids
	show := strings.Split(os.Getenv("FACT_SHOW"), ",")
	// The earlier run to compare with is read before the questions are
	// asked: a file that cannot be read stops the test at once.
	var base map[string]factAnswer
	if name := os.Getenv("FACT_BASE"); name != "" {
		var err error
		if base, err = readFactDump(name); err != nil {
			t.Fatal(err)
		}
	}
	var dump *os.File
	if name := os.Getenv("FACT_DUMP"); name != "" {
		f, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		dump = f
	}
	// The corpora are asked at once, each with its own app and index
	// (under -race, one after the other took most of the package's ten
	// minutes on two cores); their figures are merged in corpus order.
	results := make([]corpusFacts, len(factCorpora))
	var wg sync.WaitGroup
	var dumpMu sync.Mutex
	slots := make(chan struct{}, max(runtime.GOMAXPROCS(0), 1))
	for i, c := range factCorpora {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			results[i] = askCorpus(t, c.name, c.root, indexFor(c.name), splits, sources, show, dump, &dumpMu)
		}()
	}
	wg.Wait()
	answers := map[string]factAnswer{}
	for _, r := range results {
		summary.WriteString(r.summary)
		maps.Copy(answers, r.answers)
		for k, n := range r.held {
			held[k] += n
		}
		for k, n := range r.asked {
			asked[k] += n
		}
		for k, kinds := range r.whyMissed {
			if whyMissed[k] == nil {
				whyMissed[k] = map[string][]string{}
			}
			for kind, ids := range kinds {
				whyMissed[k][kind] = append(whyMissed[k][kind], ids...)
			}
		}
	}
	for _, split := range splits {
		for _, way := range []string{"ask", "ranked"} {
			k := split + "/" + way
			fmt.Fprintf(&summary, "all       %-8s %-7s %2d/%2d (%3.0f%%)\n", split, way, held[k], asked[k], 100*float64(held[k])/float64(max(asked[k], 1)))
			// Why the misses were missed: counts, and for the tune sets
			// the questions too (the held-out ones are not named), a
			// line miss with where the scorer ranks its line (id@rank).
			for _, kind := range []string{missDoc, missSection, missLine, missNextTo, missCut, "no line in the sources"} {
				ids := whyMissed[k][kind]
				if len(ids) == 0 {
					continue
				}
				if kind == missNextTo {
					fmt.Fprintf(&summary, "          %s: %d", kind, len(ids))
				} else {
					fmt.Fprintf(&summary, "          missed, %s: %d", kind, len(ids))
				}
				if split == "tune" {
					fmt.Fprintf(&summary, " (%s)", strings.Join(ids, " "))
				}
				summary.WriteString("\n")
			}
			if floor := floor[way]; split == "heldout" && held[k] < floor {
				t.Errorf("held-out, %s: %d/%d hold the fact, under the %d held before (goal: %.0f%%)",
					way, held[k], asked[k], floor, 100*factHeldOutGoal)
			}
		}
	}
	if base != nil {
		summary.WriteString(compareFacts(base, answers, splits))
	}
	t.Logf("\n%s", summary.String())
}

// corpusFacts is what one corpus's questions gave: its lines of the
// summary, and the counts and misses factEval merges.
type corpusFacts struct {
	summary     string
	held, asked map[string]int                 // by split/way
	whyMissed   map[string]map[string][]string // split/way -> kind -> ids
	answers     map[string]factAnswer          // by factKey
}

// askCorpus asks one corpus's fact questions, both ways, through an app
// of its own. It reports failures with t.Error: it runs on its own
// goroutine.
func askCorpus(t *testing.T, name, root, index string, splits []string, sources map[string]factSource, show []string, dump *os.File, dumpMu *sync.Mutex) corpusFacts {
	out := corpusFacts{held: map[string]int{}, asked: map[string]int{}, whyMissed: map[string]map[string][]string{}, answers: map[string]factAnswer{}}
	if _, err := os.Stat(root); err != nil {
		t.Errorf("corpus %s: %v", name, err)
		return out
	}
	s := config.Settings{Root: root, Convention: "auto", DocIndex: "index.json", ImageIndex: "images/index.json",
		MaxImageBytes: 5 << 20, MaxAnswerTokens: 20000, Index: index, Tools: []string{"library", "engine"}}
	if err := s.Validate(); err != nil {
		t.Error(err)
		return out
	}
	var eng *engine.Engine
	var searcher *search.Searcher
	fxApp := fx.New(appfx.Module(s, slog.New(slog.DiscardHandler)), fx.Populate(&eng, &searcher), fx.NopLogger)
	if err := fxApp.Err(); err != nil {
		t.Error(err)
		return out
	}
	ranked := func(ctx context.Context, q engine.EvalQuestion) (string, error) {
		return searcher.SearchDocuments(ctx, search.SearchRequest{Query: q.Query, Mode: search.SearchRanked, Scope: domain.Scope{Depth: -1}})
	}
	for _, split := range splits {
		file := filepath.Join("..", "..", "testdata", "eval", "facts", name+"-"+split+".jsonl")
		f, err := os.Open(file)
		if err != nil {
			if split != "tune" && split != "heldout" && errors.Is(err, fs.ErrNotExist) {
				continue
			}
			t.Error(err)
			continue
		}
		questions, err := engine.ReadEvalQuestions(f, file)
		f.Close()
		if err != nil {
			t.Error(err)
			continue
		}
		for _, way := range []struct {
			name   string
			answer engine.EvalAnswerer
		}{{"ask", eng.EvalAnswer}, {"ranked", ranked}} {
			report := engine.RunEvalQuestions(context.Background(), questions, way.answer)
			var sizes []int
			var missed []string
			for _, r := range report.Results {
				if dump != nil {
					line, _ := json.Marshal(map[string]any{"corpus": name, "split": split, "way": way.name, "id": r.Question.ID, "passed": r.Passed, "answer": r.Answer})
					dumpMu.Lock()
					fmt.Fprintf(dump, "%s\n", line)
					dumpMu.Unlock()
				}
				out.answers[factKey(split, way.name, r.Question.ID)] = factAnswer{r.Passed, len(r.Answer)}
				if slices.Contains(show, r.Question.ID) {
					t.Logf("%s %s (%v):\n%s\n", way.name, r.Question.ID, r.Passed, r.Answer)
				}
				sizes = append(sizes, domain.EstimateTokens(int64(len(r.Answer))))
				if !r.Passed {
					missed = append(missed, r.Question.ID)
					kind := "no line in the sources"
					missedAs := r.Question.ID
					if src, ok := sources[r.Question.ID]; ok {
						kind = classifyMiss(r.Answer, src)
						if kind == missLine {
							raw, err := os.ReadFile(filepath.Join(root, src.path))
							if err == nil && split == "tune" {
								// Where the scorer puts the fact's line: id@rank.
								missedAs = fmt.Sprintf("%s@%d", r.Question.ID, lineRank(r.Question.Query, r.Answer, src, strings.Split(string(raw), "\n")))
							}
							if err == nil && nextToQuoted(r.Answer, src, strings.Split(string(raw), "\n")) {
								k := split + "/" + way.name
								if out.whyMissed[k] == nil {
									out.whyMissed[k] = map[string][]string{}
								}
								out.whyMissed[k][missNextTo] = append(out.whyMissed[k][missNextTo], r.Question.ID)
							}
						}
					}
					k := split + "/" + way.name
					if out.whyMissed[k] == nil {
						out.whyMissed[k] = map[string][]string{}
					}
					out.whyMissed[k][kind] = append(out.whyMissed[k][kind], missedAs)
				}
			}
			line := fmt.Sprintf("%-9s %-8s %-7s %2d/%2d (%3.0f%%), median answer %d tokens", name, split, way.name,
				report.Passed(), len(report.Results), 100*report.Score(), median(sizes))
			if split != "heldout" { // a held-out question is counted, never named
				line += "; missed: " + strings.Join(missed, " ")
			}
			line += "\n"
			out.summary += line
			out.held[split+"/"+way.name] += report.Passed()
			out.asked[split+"/"+way.name] += len(report.Results)
		}
	}
	fxApp.Stop(context.Background())
	return out
}

func median(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
