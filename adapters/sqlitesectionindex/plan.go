package sqlitesectionindex

import "sync"

// planStats keeps what Candidates plans with (the number of docs, and how
// many docs hold each trigram) between calls: reading them cost more than
// the lookup of a rare literal (0.4 ms a trigram). They only steer the
// plan, never the answer, so a value another process made stale costs
// speed at worst; this process's own writes forget them.
type planStats struct {
	mu    sync.Mutex
	count int  // docs
	known bool // count is set
	dfs   map[string]int
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

func (p *planStats) df(term string, read func(string) (int, error)) (int, error) {
	p.mu.Lock()
	n, ok := p.dfs[term]
	p.mu.Unlock()
	if ok {
		return n, nil
	}
	n, err := read(term)
	if err != nil {
		return 0, err
	}
	p.mu.Lock()
	if p.dfs == nil || len(p.dfs) >= maxCachedGrams {
		p.dfs = map[string]int{}
	}
	p.dfs[term] = n
	p.mu.Unlock()
	return n, nil
}

// forget drops everything: the index changed.
func (p *planStats) forget() {
	p.mu.Lock()
	p.known, p.dfs = false, nil
	p.mu.Unlock()
}
