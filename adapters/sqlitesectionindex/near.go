package sqlitesectionindex

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"strings"
	"unicode"

	"github.com/librarian/librarian/domain/proximity"
)

// columnWeights are rankWeights' column weights (title, heading, body,
// code), for nearScore's bm25.
var columnWeights = [...]float64{2, 8, 1, 2}

// nearStats are what nearScore's bm25 needs of the whole index: its row
// count, its mean row length in tokens, and how many rows hold each of
// the near pairs' words (the FTS5 phrase's document count).
type nearStats struct {
	rows, average float64
	hits          map[string]float64
}

// nearStatsFor reads the index's row count and token total from FTS5's
// averages record and the pair words' document counts (one query; FTS5
// stems each word as the index does).
func (ix *Index) nearStatsFor(ctx context.Context, pairs [][2]string) (nearStats, error) {
	st := nearStats{hits: map[string]float64{}}
	var block []byte
	if err := ix.db.QueryRowContext(ctx, `SELECT block FROM ranked_data WHERE id = 1`).Scan(&block); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return st, err
	}
	rows, n := readVarint(block)
	block = block[n:]
	total := uint64(0)
	for range columnWeights {
		v, n := readVarint(block)
		if n == 0 {
			break
		}
		total += v
		block = block[n:]
	}
	st.rows = float64(rows)
	st.average = float64(total) / max(float64(rows), 1)
	var words []string
	var sel []string
	var args []any
	for _, p := range pairs {
		for _, w := range p {
			if _, ok := st.hits[w]; ok {
				continue
			}
			st.hits[w] = 0
			words = append(words, w)
			sel = append(sel, `(SELECT count(*) FROM ranked WHERE ranked MATCH ?)`)
			args = append(args, `"`+strings.ReplaceAll(w, `"`, `""`)+`"`)
		}
	}
	if len(words) == 0 {
		return st, nil
	}
	counts := make([]int64, len(words))
	dest := make([]any, len(words))
	for i := range counts {
		dest[i] = &counts[i]
	}
	if err := ix.db.QueryRowContext(ctx, `SELECT `+strings.Join(sel, ", "), args...).Scan(dest...); err != nil {
		return st, err
	}
	for i, w := range words {
		st.hits[w] = float64(counts[i])
	}
	return st, nil
}

// readVarint reads one SQLite varint, answering its value and length (0
// when b is too short).
func readVarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < len(b) && i < 9; i++ {
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

// idf is FTS5's bm25 IDF of a phrase held by hits of the index's rows.
func (st nearStats) idf(word string) float64 {
	h := st.hits[word]
	v := math.Log((st.rows - h + 0.5) / (h + 0.5))
	if v <= 0 {
		v = 1e-6
	}
	return v
}

// markedPlaces reads highlight()'s text of one column (marks \x01 \x02)
// as unicode61 tokenizes it: the column's token count, and each marked
// token's place, by which of parts (the question's words) it is: the
// one sharing its longest prefix (porter stems the token; the word the
// question wrote shares the stem's letters).
// A token's place has its column in At's high bits and its token number
// in the column in the low bits (as FTS5's position lists), so tokens of
// two columns never stand within proximity.Slop; its weight is the
// column's.
func markedPlaces(marked string, column int, parts []string, at map[string][]proximity.Place) int {
	n := 0
	in, inToken, tokenMarked := false, false, false
	var tok strings.Builder
	end := func() {
		if inToken && tokenMarked {
			if w := closestPart(strings.ToLower(tok.String()), parts); w != "" {
				at[w] = append(at[w], proximity.Place{At: int64(column)<<32 | int64(n-1), Weight: columnWeights[column]})
			}
		}
		inToken = false
		tok.Reset()
	}
	for _, r := range marked {
		switch {
		case r == 1:
			end()
			in = true
		case r == 2:
			end()
			in = false
		case unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r):
			if !inToken {
				inToken, tokenMarked = true, in
				n++
			}
			tok.WriteRune(r)
		default:
			end()
		}
	}
	end()
	return n
}

// closestPart is the part sharing the longest prefix with token (at
// least its first letters: min(3, the part's length)), "" if none.
func closestPart(token string, parts []string) string {
	best, bestN := "", 0
	for _, p := range parts {
		n := 0
		for n < len(p) && n < len(token) && p[n] == token[n] {
			n++
		}
		if n > bestN && n >= min(3, len(p)) {
			best, bestN = p, n
		}
	}
	return best
}

// nearScore is a section's bm25 over the near pairs, lower is better as
// FTS5's rank (proximity.Score). length is the section's token count.
func nearScore(pairs [][2]string, at map[string][]proximity.Place, st nearStats, length int) float64 {
	return -proximity.Score(pairs, at, st.idf, float64(length), st.average)
}
