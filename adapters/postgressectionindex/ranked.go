package postgressectionindex

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/passage"
	"github.com/librarian/librarian/domain/proximity"
)

// defaultLimit is the number of sections a RankedQuery without a Limit gets.
const defaultLimit = 5

// BM25's parameters, as SQLite's FTS5 (the other index) has them, and the
// weight of a word by where the section holds it (its tsvector's labels):
// a word of the doc title or heading path (A) counts eight times a body
// word (D, and C, which no text is given), a word of a code block (B)
// half of one. Decided on the fact eval's tune sets (app/appfx
// TestFactEvalPostgres): code at 0, 0.5, 1 and 2 times a body word held
// 396, 400, 394 and 385 of 498 facts through librarian_ask (code words
// come twice, whole and split, see codeAware); headings at 4, not 8, lost
// 6 and 3 (ask, ranked).
const (
	bm25K1        = 1.2
	bm25B         = 0.75
	headingWeight = 8.0
	codeWeight    = 0.5
)

// The pool BM25 scores: the sections holding the most of the question's
// words, k of its n words and k as high as gives at least poolMin
// sections (or k = 1), and at most poolMax: scoring reads each section's
// vector, so a common word in a big library must not make it read them
// all. Over the fact eval's corpora (700 to 10,000 sections) a pool of at
// least 200 sections ranked as well as scoring every section holding any
// word (tune ask 402, ranked 418 of 498 both ways); a pool of the first k
// giving five sections, as the index ranked before BM25, 391 and 405. At
// most 5,000 made a common word's question (9,149 sections of the 10,000-doc
// benchmark library) take 1.5 times SQLite's time, 2,000 and 1,000 about
// SQLite's (BenchmarkPostgresVsSQLite), the tune sets 403 and 418, 401 and
// 416.
const (
	poolMin = 200
	poolMax = 2000
)

// maxWords is how many of a question's words Ranked reads: a question is
// a sentence or two, and each word is a term of every section's score.
const maxWords = 64

// wordGroup is one word of a question as the index reads it: its lexeme,
// and for a code-like word (`ignoreImports`, `max-lines`, `bin/run`) the
// lexemes of its parts, searched as a phrase too, as the SQLite index
// searches "ignoreimports" OR "ignore imports".
type wordGroup struct {
	whole string
	parts []string
	// alt is a version number's other spelling's lexeme ("1.0": v1.0,
	// "v2": 2; versionSpelling), searched OR the word, "" for none.
	alt string
	// code: the word is written between backticks (codeWords).
	code bool
}

// Ranked returns the best sections for q by BM25 over the weighted
// tsvector (the weights above), computed from the vectors in SQL, ties by
// path and section order, each with its best-matching lines. A code-like
// word counts by its whole lexeme and by the phrase of its parts (the
// phrase's frequency approximated by its rarest part's). When the
// question has near pairs (nearPairs), the limit is chosen among the
// limit+rankSlack sections BM25 puts first by BM25 and the pairs' BM25
// (nearOrder), as the SQLite index chooses.
func (ix *Index) Ranked(ctx context.Context, q domain.RankedQuery) ([]domain.RankedSection, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = defaultLimit
	}
	groups, err := ix.wordGroups(ctx, q.Text)
	if err != nil || len(groups) == 0 {
		return nil, err
	}
	groups = groups[:min(len(groups), maxWords)]
	var lexemes []string
	for _, g := range groups {
		for _, l := range append([]string{g.whole, g.alt}, g.parts...) {
			if l != "" && !slices.Contains(lexemes, l) {
				lexemes = append(lexemes, l)
			}
		}
	}
	quoted := make([]string, len(lexemes))
	for i, l := range lexemes {
		quoted[i] = quoteLexeme(l)
	}
	weights, df, err := ix.termWeights(ctx, quoted)
	if err != nil {
		return nil, ix.fail("rank sections", err)
	}
	weightOf, dfOf := map[string]float64{}, map[string]float64{}
	for i, l := range lexemes {
		weightOf[l], dfOf[l] = weights[i], df[i]
	}
	// Each word is a term of the sum (a word asked twice counts twice, as
	// in FTS5), each code-like word's phrase of parts one more, weighed
	// as its rarest part.
	var terms, phrases []string
	var termWeights, phraseWeights, groupDF []float64
	var matches []string
	for _, g := range groups {
		terms, termWeights = append(terms, g.whole), append(termWeights, weightOf[g.whole])
		match := quoteLexeme(g.whole)
		if len(g.parts) > 0 {
			rarest := 0.0
			parts := make([]string, len(g.parts))
			for i, p := range g.parts {
				rarest = max(rarest, weightOf[p])
				parts[i] = quoteLexeme(p)
			}
			phrases, phraseWeights = append(phrases, strings.Join(g.parts, " ")), append(phraseWeights, rarest)
			match = "(" + match + " | " + strings.Join(parts, " <-> ") + ")"
		}
		if g.alt != "" {
			// Either spelling is the word (as SQLite's OR of the two): each
			// a term of the sum, as FTS5's bm25 sums an OR's phrases.
			terms, termWeights = append(terms, g.alt), append(termWeights, weightOf[g.alt])
			match = "(" + match + " | " + quoteLexeme(g.alt) + ")"
		}
		if !slices.Contains(matches, match) {
			matches, groupDF = append(matches, match), append(groupDF, dfOf[g.whole])
		}
	}
	pool, capped, err := ix.choosePool(ctx, matches, groupDF, q.Paths, limit)
	if err != nil {
		return nil, ix.fail("rank sections", err)
	}
	length, err := ix.averageLength(ctx)
	if err != nil {
		return nil, ix.fail("rank sections", err)
	}
	pairs := nearPairs(groups)
	fetch := limit
	if len(pairs) > 0 {
		fetch = limit + rankSlack
	}
	args := []any{pool, lexemes, terms, termWeights, phrases, phraseWeights, fetch,
		bm25K1, bm25B, length, headingWeight, codeWeight}
	candidates := `SELECT * FROM sections s WHERE s.search @@ $1::tsquery`
	if q.Paths != nil {
		args = append(args, q.Paths)
		candidates += fmt.Sprintf(` AND s.path = ANY($%d)`, len(args))
	}
	if capped {
		// The poolMax best by ts_rank (no vector unnested: one pass in C
		// over the matches' vectors), its weights (D, C, B, A, at most 1)
		// in BM25's proportions. Ties at the cap go by path and section:
		// else the heap keeps those it met first, in the table's physical
		// order, and the answer would follow the order docs were stored.
		candidates += fmt.Sprintf(` ORDER BY ts_rank('{%g, %g, %g, 1}', s.search, $1::tsquery) DESC, s.path, s.ord LIMIT %d`,
			1/headingWeight, 1/headingWeight, codeWeight/headingWeight, poolMax)
	}
	// The near pairs' words' positions in each section scored (their
	// weights' labels beside them), as "lexeme position label".
	nearCol := `, NULL::text[]`
	if len(pairs) > 0 {
		var pairLexemes []string
		for _, p := range pairs {
			for _, l := range p {
				if !slices.Contains(pairLexemes, l) {
					pairLexemes = append(pairLexemes, l)
				}
			}
		}
		args = append(args, pairLexemes)
		nearCol = fmt.Sprintf(`, ARRAY(SELECT u.lexeme || ' ' || pw.pos || ' ' || pw.wt FROM sections v, unnest(v.search) u, unnest(u.positions, u.weights) pw(pos, wt)
			WHERE v.path = r.path AND v.ord = r.ord AND u.lexeme = ANY($%d::text[]))`, len(args))
	}
	// tf: each lexeme's weighted count of positions in the section; a
	// phrase's, its rarest part's count when the section holds every part
	// (0 else). The sum runs over the question's words, then its phrases.
	rows, err := ix.pool.Query(ctx, `SELECT r.path, r.section_id, r.start_line, r.end_line, r.score, r.length::float8`+nearCol+` FROM (
		SELECT s.path, s.section_id, s.start_line, s.end_line, s.ord, s.length,
		(SELECT coalesce(sum(x.w * x.f * ($8::float8 + 1) / (x.f + $8::float8 * (1 - $9::float8 + $9::float8 * s.length / $10::float8))), 0)
			FROM (
				SELECT t.w, coalesce((tf.m->>t.l)::float8, 0) AS f FROM unnest($3::text[], $4::float8[]) t(l, w)
				UNION ALL
				SELECT p.w, (SELECT CASE WHEN bool_and(tf.m ? y) THEN min((tf.m->>y)::float8) ELSE 0 END FROM unnest(string_to_array(p.ph, ' ')) y)
				FROM unnest($5::text[], $6::float8[]) p(ph, w)
			) x WHERE x.f > 0)::float8 AS score
		FROM (`+candidates+`) s,
			LATERAL (SELECT coalesce(jsonb_object_agg(z.lexeme, z.f), '{}'::jsonb) AS m FROM (
				SELECT u.lexeme, sum(CASE wt WHEN 'A' THEN $11::float8 WHEN 'B' THEN $12::float8 ELSE 1::float8 END)::float8 AS f
				FROM unnest(s.search) u, unnest(u.weights) wt WHERE u.lexeme = ANY($2::text[]) GROUP BY u.lexeme) z) tf
		ORDER BY score DESC, s.path, s.ord LIMIT $7) r
		ORDER BY r.score DESC, r.path, r.ord`, args...)
	if err != nil {
		return nil, ix.fail("rank sections", err)
	}
	var near []float64 // out's near pairs' BM25, as scanned
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (domain.RankedSection, error) {
		var s domain.RankedSection
		var sectionLength float64
		var positions []string
		err := r.Scan(&s.Path, &s.SectionID, &s.Start, &s.End, &s.Score, &sectionLength, &positions)
		if err == nil && len(pairs) > 0 {
			near = append(near, proximity.Score(pairs, readPositions(positions), func(w string) float64 { return weightOf[w] }, sectionLength, length))
		}
		return s, err
	})
	if err != nil {
		return nil, ix.fail("rank sections", err)
	}
	if len(out) == 0 {
		return nil, nil
	}
	if len(pairs) > 0 {
		out = nearOrder(out, near, limit)
	}
	if err := ix.bestLines(ctx, clean(codeAware(strings.Join(withoutStopWords(questionWords(clean(q.Text))), " "))), out); err != nil {
		return nil, err
	}
	return out, nil
}

// choosePool returns the tsquery of the sections BM25 scores (see poolMin):
// k runs down from every word, each step a count of the sections holding
// k of them (or a rare one, rareTerms, which may outweigh k common ones),
// stopping at poolMax+1. capped: even the step before held fewer than
// limit sections and this one more than poolMax, so the poolMax of them
// ts_rank puts first are scored.
func (ix *Index) choosePool(ctx context.Context, matches []string, df []float64, paths []string, limit int) (pool string, capped bool, err error) {
	rare := rareTerms(matches, df)
	prev, prevCount, prevK := "", 0, 0
	for k := len(matches); k >= 1; k-- {
		match := atLeast(matches, k)
		if match == "" {
			continue // too many combinations: a lower k says as much
		}
		if k > 1 && len(rare) > 0 {
			match = "(" + match + ") | " + strings.Join(rare, " | ")
		}
		n, err := ix.countPool(ctx, match, paths)
		if err != nil {
			return "", false, err
		}
		switch {
		case n > poolMax && keepStepBefore(prevCount, prevK, k, limit):
			return prev, false, nil
		case n > poolMax:
			return match, true, nil
		case n >= poolMin:
			return match, false, nil
		}
		prev, prevCount, prevK = match, n, k
	}
	return prev, false, nil
}

// keepStepBefore tells that the pool is the step before (k+1 words, or
// prevK), found when this step's k words find more than poolMax: it holds
// limit sections at least and is the next step up. When atLeast skipped
// the steps between (a question of seven distinct words or more: every k
// from 2 to n-2 has more than maxCombos combinations), the step before
// holds n-1 of the words, a pool of the few sections holding nearly all
// of them, where SQLite's index scores every section holding any word
// when fewer than its limit hold them all: the poolMax sections ts_rank
// puts first among those holding any are scored instead. (The glossary's
// one-line "OTel" entry holds 4 of a question's 8 words; the pool of 7
// held 32 sections, not it.)
func keepStepBefore(prevCount, prevK, k, limit int) bool {
	return prevCount >= limit && prevK == k+1
}

// countPool counts the sections match finds, up to poolMax+1.
func (ix *Index) countPool(ctx context.Context, match string, paths []string) (int, error) {
	query := `SELECT count(*) FROM (SELECT 1 FROM sections s WHERE s.search @@ $1::tsquery`
	args := []any{match}
	if paths != nil {
		query += ` AND s.path = ANY($2)`
		args = append(args, paths)
	}
	var n int
	err := ix.pool.QueryRow(ctx, query+fmt.Sprintf(` LIMIT %d) x`, poolMax+1), args...).Scan(&n)
	return n, err
}

// wordGroups reads a question's words (its whitespace-separated tokens)
// as the index reads text (codeAware, the librarian_english
// configuration): each token's lexemes in order, the first the whole word,
// the rest its parts; a token that is only stop words has none.
func (ix *Index) wordGroups(ctx context.Context, question string) ([]wordGroup, error) {
	words := withoutStopWords(questionWords(clean(question)))
	tokens := make([]string, len(words))
	for i, t := range words {
		tokens[i] = clean(codeAware(t))
	}
	// A version number's other spelling, a token of its own after the
	// words (altOf: its index in tokens to its word's).
	code := codeWords(question)
	altOf := map[int]int{}
	for i, t := range words {
		if v, ok := versionSpelling(t); ok && !code[t] {
			altOf[len(tokens)] = i
			tokens = append(tokens, v)
		}
	}
	rows, err := ix.pool.Query(ctx, `SELECT t.i, u.lexeme FROM unnest($1::text[]) WITH ORDINALITY t(tok, i),
		unnest(to_tsvector('librarian_english', t.tok)) u ORDER BY t.i, u.positions[1]`, tokens)
	if err != nil {
		return nil, ix.fail("rank sections", err)
	}
	var groups []wordGroup
	var at []int             // groups[j] is words[at[j]]'s
	alts := map[int]string{} // a word's index to its other spelling's first lexeme
	last := int64(-1)
	for rows.Next() {
		var i int64
		var lexeme string
		if err := rows.Scan(&i, &lexeme); err != nil {
			rows.Close()
			return nil, ix.fail("rank sections", err)
		}
		if w, ok := altOf[int(i)-1]; ok {
			if _, seen := alts[w]; !seen {
				alts[w] = lexeme
			}
			continue
		}
		if i != last {
			groups, at = append(groups, wordGroup{whole: lexeme}), append(at, int(i)-1)
			last = i
			continue
		}
		g := &groups[len(groups)-1]
		g.parts = append(g.parts, lexeme)
	}
	if err := rows.Err(); err != nil {
		return nil, ix.fail("rank sections", err)
	}
	// A word the parser splits itself (snake_case: OTEL_SDK_DISABLED is
	// otel, sdk, disabl) has no whole lexeme: its first lexeme is its
	// first part's, and the phrase of its parts starts there.
	for j := range groups {
		g := &groups[j]
		if len(g.parts) > 0 && splitByParser(words[at[j]], g.whole) {
			g.parts = append([]string{g.whole}, g.parts...)
		}
		if a := alts[at[j]]; a != g.whole {
			g.alt = a
		}
		g.code = code[words[at[j]]]
	}
	return groups, nil
}

// splitByParser tells that whole, the first lexeme of word, is its first
// part's and not the whole word's: PostgreSQL's parser splits snake_case
// into words and keeps no whole form, where a camelCase, dotted or
// hyphenated word has one (getruntimekey, jest.mock, no-param-reassign),
// longer than its first part.
func splitByParser(word, whole string) bool {
	parts := splitCode(word)
	return len(parts) > 1 && utf8.RuneCountInString(whole) <= utf8.RuneCountInString(parts[0])
}

// questionWords splits a question into the words Ranked reads: at spaces
// and at punctuation that does not join a code name (as the SQLite index
// reads a question), each trimmed of joiners at its ends. A token such as
// `debug()/prettyDOM` or `jest.mock('./UserService')` is two words, not
// one whose first lexeme alone counted (the rest were the parts of a
// phrase that no doc holds).
func questionWords(q string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(q, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !isJoiner(r)
	}) {
		if w = strings.TrimFunc(w, isJoiner); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// withoutStopWords is words but the stop words, or words when that is none.
// A word is a stop word when SQLite's index drops it too
// (passage.QueryStopword) or is one of the pronouns, auxiliaries and
// connectives PostgreSQL's English stop list names (passage.Connective):
// the index's stemmer keeps every word (schema version 8), so the words of
// that list a question turns on stay searchable (not, no, only, all,
// before, after, off, out, over, while).
func withoutStopWords(words []string) []string {
	var out []string
	for _, w := range words {
		if lw := strings.ToLower(w); !passage.QueryStopword(lw) && !passage.Connective(lw) {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		return words
	}
	return out
}

// isJoiner tells the punctuation that holds a code name together
// (max_age, --radius-field, hono/adapter, os.Getenv, std::vector, $state).
func isJoiner(r rune) bool {
	return r == '_' || r == '-' || r == '.' || r == '/' || r == ':' || r == '$'
}

// quoteLexeme is lexeme as a tsquery operand.
func quoteLexeme(lexeme string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(lexeme, `\`, `\\`), `'`, `''`) + "'"
}

// sampledSections is the count of sections past which averageLength reads
// a 1 % sample: the mean needs to be near, not exact. The sample is the
// same for the same table (REPEATABLE), so that two servers, or two runs,
// over the same library score alike.
const sampledSections = 50_000

// averageLength is a section's mean length in words (BM25's avgdl), kept
// with the term counts (termStats).
func (ix *Index) averageLength(ctx context.Context) (float64, error) {
	st := &ix.terms
	st.mu.Lock()
	length, sections := st.length, st.sections
	st.mu.Unlock()
	if length > 0 {
		return length, nil
	}
	from := `sections`
	if sections > sampledSections {
		from = `sections TABLESAMPLE SYSTEM (1) REPEATABLE (0)`
	}
	if err := ix.pool.QueryRow(ctx, `SELECT coalesce(avg(length), 0)::float8 FROM `+from).Scan(&length); err != nil {
		return 0, err
	}
	length = max(length, 1)
	st.mu.Lock()
	st.length = length
	st.mu.Unlock()
	return length, nil
}

// versionSpelling is a version number's other spelling, as docs write a
// version either way ("versioned to v1.0", "pnpm 11"): "1.0" is "v1.0",
// "v1.0" is "1.0", "11" is "v11" and "v11" is "11". PostgreSQL's parser
// reads v1.0 and v2 as one token each, which 1.0 and 2 do not meet (the
// SQLite index's versionForm does the same for its tokenizer).
func versionSpelling(word string) (string, bool) {
	digits := strings.TrimPrefix(strings.ToLower(word), "v")
	if digits == "" || !isVersion(digits) {
		return "", false
	}
	if len(digits) < len(word) {
		return digits, true
	}
	return "v" + digits, true
}

// isVersion tells digits in dot-separated runs ("2", "1.0", "10.2.3").
func isVersion(s string) bool {
	for _, run := range strings.Split(s, ".") {
		if run == "" {
			return false
		}
		for i := 0; i < len(run); i++ {
			if run[i] < '0' || run[i] > '9' {
				return false
			}
		}
	}
	return true
}

// codeWords are the question's words written between backticks: a number
// there is a value (`a = b = 0`), not a version.
func codeWords(question string) map[string]bool {
	out := map[string]bool{}
	for i, piece := range strings.Split(question, "`") {
		if i%2 == 1 {
			for _, w := range questionWords(clean(piece)) {
				out[w] = true
			}
		}
	}
	return out
}
