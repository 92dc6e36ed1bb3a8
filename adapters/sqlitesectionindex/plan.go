package sqlitesectionindex

import "sync"

// planStats keeps what Candidates plans with (the number of docs, and how
// many docs hold each trigram) between calls: reading them cost more than
// the lookup of a rare literal (0.4 ms a trigram). They only steer the
// plan, never the answer, so a value another process made stale costs
// speed at worst; this process's own writes forget them.
type planStats struct {
	mu     sync.Mutex
	count  int            // docs
	known  bool           // count is set
	counts map[string]int // trigram -> docs holding it
}

// maxCachedGrams bounds the trigram counts kept.
const maxCachedGrams = 4096

func (p *planStats) docs(read func() (int, error)) (int, error) {
	p.mu.Lock()
	if p.known {
		n := p.count
		p.mu.Unlock()
		return n, nil
	}
	p.mu.Unlock()
	n, err := read()
	if err != nil {
		return 0, err
	}
	p.mu.Lock()
	p.count, p.known = n, true
	p.mu.Unlock()
	return n, nil
}

// dfs returns the counts of terms, in order, reading those not kept with
// read (a term read answers nothing for is in no doc).
func (p *planStats) dfs(terms []string, read func(missing []string) (map[string]int, error)) ([]int, error) {
	out := make([]int, len(terms))
	var missing []string
	p.mu.Lock()
	for i, t := range terms {
		n, ok := p.counts[t]
		if ok {
			out[i] = n
		} else {
			missing = append(missing, t)
		}
	}
	p.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	got, err := read(missing)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.counts == nil || len(p.counts)+len(missing) > maxCachedGrams {
		p.counts = map[string]int{}
	}
	for _, t := range missing {
		p.counts[t] = got[t]
	}
	for i, t := range terms {
		out[i] = p.counts[t]
	}
	return out, nil
}

// forget drops everything: the index changed.
func (p *planStats) forget() {
	p.mu.Lock()
	p.known, p.counts = false, nil
	p.mu.Unlock()
}
