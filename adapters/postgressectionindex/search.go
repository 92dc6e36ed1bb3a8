package postgressectionindex

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/sectionindex"
)

// minLiteral is the shortest literal the trigram index narrows.
const minLiteral = 3

// Candidates returns the docs whose folded text holds one of q.AnyOf,
// folded the same way (so a case-sensitive literal gets the case-insensitive
// superset: the caller's matcher decides). The pg_trgm GIN index on the
// folded text answers the LIKE; PostgreSQL rechecks every hit, so the
// answer is exact for the folded text.
func (ix *Index) Candidates(ctx context.Context, q domain.CandidateQuery) ([]string, bool, error) {
	where, args, all := candidateWhere(q)
	if all {
		return nil, true, nil
	}
	rows, err := ix.pool.Query(ctx, `SELECT path FROM docs WHERE `+where+` ORDER BY path`, args...)
	if err != nil {
		return nil, false, ix.fail("find candidates", err)
	}
	paths, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, false, ix.fail("find candidates", err)
	}
	if paths == nil {
		paths = []string{}
	}
	return paths, false, nil
}

// CandidateTexts streams the texts of Candidates' docs (of every doc, in
// q.Paths when set, when the index cannot narrow q) from one query, in
// path order: a search from the index alone reads each candidate once, as
// the rows arrive, instead of one Entry query per doc and a cache of them all.
func (ix *Index) CandidateTexts(ctx context.Context, q domain.CandidateQuery, fn func(sectionindex.Text) error) error {
	where, args, all := candidateWhere(q)
	if !all && ix.broad(ctx, where, args) {
		all = true
	}
	if all {
		where, args = "true", nil
		if q.Paths != nil {
			where, args = "path = ANY($1)", []any{q.Paths}
		}
	}
	return ix.streamTexts(ctx, "read the candidates' texts", ` WHERE `+where, args, fn)
}

// broadShare is the share of docs holding a literal above which
// CandidateTexts sends every doc rather than the candidates: PostgreSQL
// rechecks each doc the trigram index names by running the LIKE over its
// folded text, which costs more than sending the doc and matching it here.
// The benchmark's regex has literals in 8,623 of 10,000 docs: its 8,623
// candidates' texts took 480-590 ms to arrive, all 10,000 texts 290-330 ms.
const broadShare = 0.5

// sampleDocs is about how many docs broad's sample reads.
const sampleDocs = 200

// broad estimates, from a sample of the docs' pages (about sampleDocs docs
// of the catalog last read, 1 % before any), whether more than broadShare
// of the docs match where; a sample with no doc (a small library) or a
// failed query says no. A 1 % sample of 100,000 docs ran the LIKE over
// 1,000 texts and cost a rare literal 100 ms.
func (ix *Index) broad(ctx context.Context, where string, args []any) bool {
	percent := 1.0
	ix.catMu.Lock()
	if ix.cat != nil && len(ix.cat.Docs) > 0 {
		percent = min(100, 100*float64(sampleDocs)/float64(len(ix.cat.Docs)))
	}
	ix.catMu.Unlock()
	var share *float64
	err := ix.pool.QueryRow(ctx, fmt.Sprintf(`SELECT (count(*) FILTER (WHERE %s))::float8 / nullif(count(*), 0)
		FROM docs TABLESAMPLE SYSTEM ($%d)`, where, len(args)+1), append(slices.Clone(args), percent)...).Scan(&share)
	return err == nil && share != nil && *share > broadShare
}

// candidateWhere is the condition on docs that Candidates asks for q, with
// its arguments; all when q cannot be narrowed (a literal too short).
func candidateWhere(q domain.CandidateQuery) (where string, args []any, all bool) {
	if len(q.AnyOf) == 0 {
		return "", nil, true
	}
	var ors []string
	for _, lit := range q.AnyOf {
		f := foldString(lit)
		if utf8.RuneCountInString(f) < minLiteral {
			return "", nil, true
		}
		args = append(args, "%"+likeEscape(f)+"%")
		ors = append(ors, fmt.Sprintf("folded LIKE $%d", len(args)))
	}
	where = `(` + strings.Join(ors, " OR ") + `)`
	if q.Paths != nil {
		args = append(args, q.Paths)
		where += fmt.Sprintf(" AND path = ANY($%d)", len(args))
	}
	return where, args, false
}

// likeEscape escapes LIKE's wildcards and its escape character.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// queryCTE defines q(q) for the text $1, which bestLines scores lines by:
// q matches any of its distinct lexemes as the librarian_english
// configuration analyses it (stemmed, diacritics folded, stop words
// dropped), since a question in words rarely has every word on one line.
// q is NULL when the text has no lexeme (then nothing matches).
const queryCTE = `l AS (SELECT DISTINCT '''' || replace(replace(lexeme, '\', '\\'), '''', '''''') || '''' AS quoted
		FROM unnest(to_tsvector('librarian_english', $1))),
	q AS (SELECT string_agg(quoted, ' | ')::tsquery AS q FROM l)`

// maxCombos caps the combinations of terms atLeast writes.
const maxCombos = 16

// atLeast is the tsquery of the sections holding at least k of terms: the
// OR of the ANDs of every k of them; "" when there are more than maxCombos.
func atLeast(terms []string, k int) string {
	n := len(terms)
	if k <= 1 {
		return strings.Join(terms, " | ")
	}
	if k >= n {
		return strings.Join(terms, " & ")
	}
	combos := 1
	for i := 0; i < k; i++ {
		combos = combos * (n - i) / (i + 1)
	}
	if combos > maxCombos {
		return ""
	}
	var ors []string
	pick := make([]int, k)
	for i := range pick {
		pick[i] = i
	}
	for {
		and := make([]string, k)
		for i, j := range pick {
			and[i] = terms[j]
		}
		ors = append(ors, "("+strings.Join(and, " & ")+")")
		i := k - 1
		for i >= 0 && pick[i] == n-k+i {
			i--
		}
		if i < 0 {
			return strings.Join(ors, " | ")
		}
		pick[i]++
		for j := i + 1; j < k; j++ {
			pick[j] = pick[j-1] + 1
		}
	}
}

// bestLines fills each section's Lines: up to three of its lines that
// match the query, best first (ts_rank of the line alone), ties by line.
func (ix *Index) bestLines(ctx context.Context, text string, secs []domain.RankedSection) error {
	var docs []string
	seen := map[string]bool{}
	for _, s := range secs {
		if !seen[s.Path] {
			seen[s.Path] = true
			docs = append(docs, s.Path)
		}
	}
	type doc struct {
		lines []string
		fm    int
	}
	byPath := map[string]doc{}
	rows, err := ix.pool.Query(ctx, `SELECT path, content, coalesce((structure->>'FrontmatterEnd')::int, 0) FROM docs WHERE path = ANY($1)`, docs)
	if err != nil {
		return ix.fail("read sections' lines", err)
	}
	for rows.Next() {
		var p string
		var content []byte
		var fm int
		if err := rows.Scan(&p, &content, &fm); err != nil {
			rows.Close()
			return ix.fail("read sections' lines", err)
		}
		byPath[p] = doc{splitLines(content), fm}
	}
	if err := rows.Err(); err != nil {
		return ix.fail("read sections' lines", err)
	}
	// A section's best lines come from its own text, as its rank does: up
	// to the next section's start (its first subsection).
	rows, err = ix.pool.Query(ctx, `SELECT path, start_line FROM sections WHERE path = ANY($1)`, docs)
	if err != nil {
		return ix.fail("read sections' lines", err)
	}
	starts := map[string][]int{}
	for rows.Next() {
		var p string
		var start int
		if err := rows.Scan(&p, &start); err != nil {
			rows.Close()
			return ix.fail("read sections' lines", err)
		}
		starts[p] = append(starts[p], start)
	}
	if err := rows.Err(); err != nil {
		return ix.fail("read sections' lines", err)
	}
	var keys, nums []int32
	var texts []string
	for k, s := range secs {
		d := byPath[s.Path]
		own := s.End
		for _, start := range starts[s.Path] {
			if start > s.Start && start-1 < own {
				own = start - 1
			}
		}
		for n := max(s.Start, d.fm+1); n <= own && n <= len(d.lines); n++ {
			if strings.TrimSpace(d.lines[n-1]) == "" {
				continue
			}
			keys = append(keys, int32(k))
			nums = append(nums, int32(n))
			texts = append(texts, clean(codeAware(d.lines[n-1])))
		}
	}
	if len(keys) == 0 {
		return nil
	}
	rows, err = ix.pool.Query(ctx, `WITH `+queryCTE+`
		SELECT k, n FROM (
			SELECT k, n, row_number() OVER (PARTITION BY k ORDER BY ts_rank(v, q.q) DESC, n) AS rn
			FROM (SELECT k, n, to_tsvector('librarian_english', t) AS v FROM unnest($2::int[], $3::int[], $4::text[]) AS l(k, n, t)) l, q
			WHERE v @@ q.q
		) x WHERE rn <= 3 ORDER BY k, rn`, text, keys, nums, texts)
	if err != nil {
		return ix.fail("pick sections' lines", err)
	}
	for rows.Next() {
		var k, n int32
		if err := rows.Scan(&k, &n); err != nil {
			rows.Close()
			return ix.fail("pick sections' lines", err)
		}
		secs[k].Lines = append(secs[k].Lines, int(n))
	}
	if err := rows.Err(); err != nil {
		return ix.fail("pick sections' lines", err)
	}
	return nil
}

// dfCap is where a term's count of sections stops: a term in more says
// little about which section answers, and counting them all would read
// most of a big library's sections on every question.
const dfCap = 2000

// termStats are the counts termWeights reads, kept while no writer has
// bumped the index's generation, and for termStatsMaxAge after one has:
// a weight needs the counts near, not exact, and a server answering while
// a build commits batch after batch would count every section again on
// each call.
type termStats struct {
	mu       sync.Mutex
	gen      int64     // the generation the counts were started at
	at       time.Time // when
	sections float64
	df       map[string]float64
	length   float64 // a section's mean length, in words (averageLength); 0 before it is read
}

// estimatedSections is the planner's count of sections past which BM25's
// N is that estimate, not a count: counting a million sections took
// 230 ms. Below it the count is exact, so that scores do not depend on
// when autovacuum last analyzed the table (an analyze halfway through an
// ingest left N at a quarter of the sections, and a busy machine's
// answers in another order than a quiet one's).
const estimatedSections = 1_000_000

// termStatsMaxAge is how long counts outlive a change to the index.
const termStatsMaxAge = time.Minute

// rareTermSections is how many sections at most hold a term rareTerms
// names, and rareTermsAsked how many of them it names.
const (
	rareTermSections = 200
	rareTermsAsked   = 3
)

// rareTerms returns the question's rarest terms (df: how many sections
// hold each), those held by rareTermSections or fewer, rareTermsAsked at
// most, rarest first.
func rareTerms(terms []string, df []float64) []string {
	idx := make([]int, 0, len(terms))
	for i := range terms {
		if df[i] > 0 && df[i] <= rareTermSections {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(df[a], df[b]) })
	var out []string
	for _, i := range idx[:min(len(idx), rareTermsAsked)] {
		out = append(out, terms[i])
	}
	return out
}

// termWeights returns each term's weight in a section's score: its inverse
// document frequency over the sections, as BM25 has it, ln(1 + (N - df +
// 0.5) / (df + 0.5)), the count stopping at dfCap. Counted once per term
// (termStats): a question asked again costs one small query.
func (ix *Index) termWeights(ctx context.Context, terms []string) (weights, df []float64, err error) {
	var gen int64
	if err := ix.pool.QueryRow(ctx, generationSQL).Scan(&gen); err != nil {
		return nil, nil, err
	}
	st := &ix.terms
	st.mu.Lock()
	if st.df == nil || st.gen != gen && time.Since(st.at) > termStatsMaxAge || len(st.df) > maxCountedTerms {
		st.gen, st.at, st.df, st.sections, st.length = gen, time.Now(), map[string]float64{}, 0, 0
	}
	df = make([]float64, len(terms))
	var missing []string
	var missingAt []int // missing[j] is terms[missingAt[j]]
	for i, t := range terms {
		c, ok := st.df[t]
		if !ok {
			missing, missingAt = append(missing, t), append(missingAt, i)
		}
		df[i] = c
	}
	n := st.sections
	st.mu.Unlock()
	if len(missing) > 0 {
		if n == 0 {
			// The sections counted; past estimatedSections (by the
			// planner's count when the table was last analyzed), that
			// count instead.
			if err := ix.pool.QueryRow(ctx, `SELECT CASE WHEN c.reltuples >= $1 THEN c.reltuples::float8
				ELSE (SELECT count(*) FROM sections)::float8 END FROM pg_class c WHERE c.oid = 'sections'::regclass`, estimatedSections).Scan(&n); err != nil {
				return nil, nil, err
			}
		}
		counts, err := ix.countSections(ctx, missing)
		if err != nil {
			return nil, nil, err
		}
		st.mu.Lock()
		if st.sections == 0 {
			st.sections = n
		}
		for j, t := range missing {
			df[missingAt[j]] = counts[j]
			st.df[t] = counts[j]
		}
		st.mu.Unlock()
	}
	weights = make([]float64, len(terms))
	for i := range terms {
		weights[i] = idf(n, df[i])
	}
	return weights, df, nil
}

// countParallel is how many terms countSections counts at once.
const countParallel = 4

// countSections counts the sections holding each term, up to dfCap, the
// terms at once on connections of their own: counted one after another,
// the cold pages of a 100,000-doc library's sections made a new question
// 25 ms slower.
func (ix *Index) countSections(ctx context.Context, terms []string) ([]float64, error) {
	counts := make([]float64, len(terms))
	errs := make([]error, len(terms))
	sem := make(chan struct{}, countParallel)
	var wg sync.WaitGroup
	for i, t := range terms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = ix.pool.QueryRow(ctx, `SELECT count(*)::float8 FROM (SELECT 1 FROM sections
				WHERE search @@ $1::tsquery LIMIT `+strconv.Itoa(dfCap)+`) x`, t).Scan(&counts[i])
		}()
	}
	wg.Wait()
	return counts, errors.Join(errs...)
}

// maxCountedTerms bounds termStats' memory: past it the counts start over.
const maxCountedTerms = 100_000

// idf is BM25's inverse document frequency of a term n sections of which
// hold df.
func idf(n, df float64) float64 {
	n = max(n, df)
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}
