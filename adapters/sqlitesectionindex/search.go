package sqlitesectionindex

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/proximity"
	"github.com/librarian/librarian/domain/textmatch"
)

// gram is the trigram table's gram length: a literal shorter than this
// cannot be looked up.
const gram = 3

// Candidates returns the docs whose folded text holds one of q.AnyOf.
// Case-sensitive queries use the folded table too: folding only widens.
func (ix *Index) Candidates(ctx context.Context, q domain.CandidateQuery) ([]string, bool, error) {
	if len(q.AnyOf) == 0 {
		return nil, true, nil
	}
	var phrases []string
	var estimate int
	docs, err := ix.plan.docs(func() (int, error) {
		var n int
		return n, ix.db.QueryRowContext(ctx, `SELECT count(*) FROM docs`).Scan(&n)
	})
	if err != nil {
		return nil, false, fmt.Errorf("section index candidates: %w", err)
	}
	for _, lit := range q.AnyOf {
		if utf8.RuneCountInString(lit) < gram {
			return nil, true, nil
		}
		expr, df, err := ix.gramsOf(ctx, textmatch.Fold([]byte(lit)))
		if err != nil {
			return nil, false, err
		}
		phrases = append(phrases, expr)
		estimate += df
	}
	// Planning: when the literals' rarest grams are in most docs, the
	// lookup costs more than it saves (every doc is scanned anyway).
	if estimate*2 > docs {
		return nil, true, nil
	}
	query := `SELECT path FROM docs WHERE id IN (SELECT rowid FROM grams WHERE grams MATCH ?)`
	args := []any{strings.Join(phrases, " OR ")}
	if q.Paths != nil {
		if len(q.Paths) == 0 {
			return []string{}, false, nil
		}
		query += ` AND path IN (SELECT value FROM json_each(?))`
		args = append(args, jsonList(q.Paths))
	}
	rows, err := ix.db.QueryContext(ctx, query+` ORDER BY path`, args...)
	if err != nil {
		return nil, false, fmt.Errorf("section index candidates: %w", err)
	}
	defer rows.Close()
	paths := []string{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, false, fmt.Errorf("section index candidates: %w", err)
		}
		paths = append(paths, p)
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("section index candidates: %w", err)
	}
	return paths, false, nil
}

// maxGrams caps the trigrams looked up per literal: a few spread over it
// narrow as well as all of them.
const maxGrams = 12

// matchGrams is how many of a literal's trigrams the lookup ANDs: the
// rarest ones. Each posting list the AND walks costs time in proportion to
// its length, and past the rarest few the candidates barely shrink.
const matchGrams = 3

// gramsOf is the FTS5 expression of a folded literal: the rarest
// matchGrams of its trigrams (of up to maxGrams looked at), ANDed, and the
// number of docs holding its rarest one (an upper bound of its
// candidates). The table keeps no positions (detail=none, a third of the
// size), so adjacency is the verifier's job: a superset.
func (ix *Index) gramsOf(ctx context.Context, lit string) (string, int, error) {
	rs := []rune(lit)
	n := len(rs) - gram + 1
	step := 1
	if n > maxGrams {
		step = (n + maxGrams - 1) / maxGrams
	}
	var grams []string
	seen := map[string]bool{}
	for i := 0; i < n; i += step {
		g := string(rs[i : i+gram])
		if i+step >= n {
			g = string(rs[n-1:]) // always include the last gram
		}
		if !seen[g] {
			seen[g] = true
			grams = append(grams, g)
		}
	}
	// The vocabulary holds the tokenizer's own (lower-case) form; the
	// counts not known yet are read in one query.
	terms := make([]string, len(grams))
	for i, g := range grams {
		terms[i] = strings.ToLower(g)
	}
	dfs, err := ix.plan.dfs(terms, func(missing []string) (map[string]int, error) {
		rows, err := ix.db.QueryContext(ctx, `SELECT term, doc FROM grams_vocab WHERE term IN (SELECT value FROM json_each(?))`, jsonList(missing))
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		got := map[string]int{}
		for rows.Next() {
			var term string
			var n int
			if err := rows.Scan(&term, &n); err != nil {
				return nil, err
			}
			got[term] = n
		}
		return got, rows.Err()
	})
	if err != nil {
		return "", 0, fmt.Errorf("section index candidates: %w", err)
	}
	type counted struct {
		expr string
		df   int
	}
	gs := make([]counted, len(grams))
	rarest := -1
	for i, g := range grams {
		df := dfs[i]
		if rarest < 0 || df < rarest {
			rarest = df
		}
		gs[i] = counted{`"` + strings.ReplaceAll(g, `"`, `""`) + `"`, df}
	}
	slices.SortStableFunc(gs, func(a, b counted) int { return a.df - b.df })
	exprs := make([]string, 0, matchGrams)
	for _, c := range gs[:min(len(gs), matchGrams)] {
		exprs = append(exprs, c.expr)
	}
	return "(" + strings.Join(exprs, " AND ") + ")", rarest, nil
}

func jsonList(ss []string) string {
	raw, _ := json.Marshal(ss) // strings: cannot fail
	return string(raw)
}

// defaultRanked is the number of sections Ranked answers when q.Limit is 0.
const defaultRanked = 5

// Ranked answers the best sections for q by bm25 over title, heading path,
// body and code identifiers (weights in rankWeights): among the sections
// holding every word of the question when there are enough of them (as
// the PostgreSQL adapter does), else among those holding any. Scoring is
// the cost (bm25 of the 21,000 sections holding any word of a six-word
// question took 57 ms), so the sections holding every word, usually few,
// are scored first, and only the best are joined and highlighted.
func (ix *Index) Ranked(ctx context.Context, q domain.RankedQuery) ([]domain.RankedSection, error) {
	terms, parts, near := matchTerms(q.Text)
	if len(terms) == 0 || (q.Paths != nil && len(q.Paths) == 0) {
		return nil, nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = defaultRanked
	}
	var out []domain.RankedSection
	var err error
	if len(terms) > 1 {
		out, err = ix.rank(ctx, q, strings.Join(terms, " AND "), limit, parts, nil)
	}
	if err == nil && len(out) < limit {
		out, err = ix.rank(ctx, q, strings.Join(terms, " OR "), limit, parts, near)
	}
	return out, err
}

// rankSlack is how many sections past the limit the scoring pass keeps,
// so that ties in score at the limit are broken by path and line order as
// the answer promises, not by the order FTS5 met them.
const rankSlack = 16

// The near pairs (proximity.Share) reorder only the pool of
// limit+rankSlack sections (no section joins it), and the score callers
// weigh is the words' alone. Tune, against 905 and 913: a pool twice as
// large, or the every-word pass reordered too: no change; sections found
// by the pairs alone joining the pool at 1.0: ask +1 −7; pairs one word
// apart in the question too: −2 each way.

// rank answers up to limit sections matching expr, best first; near, the
// question's near pairs, reorder the sections scored first (proximity.Share).
func (ix *Index) rank(ctx context.Context, q domain.RankedQuery, expr string, limit int, parts []string, near [][2]string) ([]domain.RankedSection, error) {
	// Pass 1: the best rowids by score alone.
	query := `SELECT rowid, rank FROM ranked WHERE ranked MATCH ?`
	args := []any{expr}
	if q.Paths != nil {
		query += ` AND rowid IN (SELECT s.id FROM sections s JOIN docs d ON d.id = s.doc WHERE d.path IN (SELECT value FROM json_each(?)))`
		args = append(args, jsonList(q.Paths))
	}
	query += ` ORDER BY rank LIMIT ?`
	args = append(args, limit+rankSlack)
	rows, err := ix.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("section index ranked search %q: %w", q.Text, err)
	}
	scores := map[int64]float64{}
	var ids []int64
	for rows.Next() {
		var id int64
		var score float64
		if err := rows.Scan(&id, &score); err != nil {
			rows.Close()
			return nil, fmt.Errorf("section index ranked search: %w", err)
		}
		scores[id] = score
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("section index ranked search: %w", err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	var st nearStats
	if len(near) > 0 {
		if st, err = ix.nearStatsFor(ctx, near); err != nil {
			return nil, fmt.Errorf("section index ranked search %q: %w", q.Text, err)
		}
	}
	// Pass 2: where those sections are, and which of their lines matched;
	// with near pairs, the other columns' marks too, for nearScore.
	cols := `highlight(ranked, 2, char(1), char(2))`
	if len(near) > 0 {
		cols += `, highlight(ranked, 0, char(1), char(2)), highlight(ranked, 1, char(1), char(2)), highlight(ranked, 3, char(1), char(2))`
	}
	rows, err = ix.db.QueryContext(ctx, `SELECT ranked.rowid, d.path, s.section_id, s.start, s.end, `+cols+`
		FROM ranked JOIN sections s ON s.id = ranked.rowid JOIN docs d ON d.id = s.doc
		WHERE ranked MATCH ? AND ranked.rowid IN (SELECT value FROM json_each(?))`, expr, jsonInts(ids))
	if err != nil {
		return nil, fmt.Errorf("section index ranked search %q: %w", q.Text, err)
	}
	defer rows.Close()
	var out []domain.RankedSection
	var orders []float64 // out's, as appended: bm25, lower is better
	for rows.Next() {
		var id int64
		var s domain.RankedSection
		var marked string
		var other [3]sql.NullString // title, heading, code
		dest := []any{&id, &s.Path, &s.SectionID, &s.Start, &s.End, &marked}
		if len(near) > 0 {
			dest = append(dest, &other[0], &other[1], &other[2])
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("section index ranked search: %w", err)
		}
		s.Score = -scores[id] // bm25 is lower-is-better; the port's Score is higher-is-better
		s.Lines = bestLines(marked, s.Start, parts)
		out = append(out, s)
		order := scores[id]
		if len(near) > 0 {
			at := map[string][]proximity.Place{}
			length := markedPlaces(marked, 2, parts, at)
			for i, c := range []int{0, 1, 3} {
				length += markedPlaces(other[i].String, c, parts, at)
			}
			order += proximity.Share * nearScore(near, at, st, length)
		}
		orders = append(orders, order)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("section index ranked search: %w", err)
	}
	byScore := func(a, b domain.RankedSection) int {
		switch {
		case a.Score != b.Score:
			return cmp.Compare(b.Score, a.Score)
		case a.Path != b.Path:
			return strings.Compare(a.Path, b.Path)
		}
		return a.Start - b.Start
	}
	// The limit's cut by order (the near pairs' too), then the sections
	// kept by their own score, best first, as the port promises.
	kept := make([]int, len(out))
	for i := range kept {
		kept[i] = i
	}
	slices.SortFunc(kept, func(i, j int) int {
		if orders[i] != orders[j] {
			return cmp.Compare(orders[i], orders[j])
		}
		return byScore(out[i], out[j])
	})
	best := make([]domain.RankedSection, 0, min(len(out), limit))
	for _, i := range kept[:min(len(out), limit)] {
		best = append(best, out[i])
	}
	slices.SortFunc(best, byScore)
	return best, nil
}

func jsonInts(ids []int64) string {
	raw, _ := json.Marshal(ids) // numbers: cannot fail
	return string(raw)
}

// Names answers stored names equal to query (ignoring case) first, then
// those containing it, each group by path and line.
func (ix *Index) Names(ctx context.Context, query string, limit int) ([]domain.NameHit, error) {
	if query == "" || limit <= 0 {
		return nil, nil
	}
	lq := strings.ToLower(query)
	rows, err := ix.db.QueryContext(ctx, `SELECT n.kind, n.name, n.line, n.signature, d.path, n.lname = ?1
		FROM names n JOIN docs d ON d.id = n.doc
		WHERE instr(n.lname, ?1) > 0
		ORDER BY n.lname = ?1 DESC, d.path, n.line, n.name LIMIT ?2`, lq, limit)
	if err != nil {
		return nil, fmt.Errorf("section index names %q: %w", query, err)
	}
	defer rows.Close()
	var out []domain.NameHit
	for rows.Next() {
		var h domain.NameHit
		if err := rows.Scan(&h.Kind, &h.Name.Name, &h.Line, &h.Signature, &h.Path, &h.Exact); err != nil {
			return nil, fmt.Errorf("section index names: %w", err)
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// LinksTo answers the docs linking to path, in path order.
func (ix *Index) LinksTo(ctx context.Context, path string) ([]string, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT DISTINCT d.path FROM links l JOIN docs d ON d.id = l.doc WHERE l.target = ? ORDER BY d.path`, path)
	if err != nil {
		return nil, fmt.Errorf("section index links to %s: %w", path, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("section index links: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
