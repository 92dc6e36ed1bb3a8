package localretrieval

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/domain/wording"
)

// Depends implements retrieval.Finder: an entry is a doc (by id or path);
// depends_on are the docs it links to, dependents the docs linking to it,
// by doc id, in the index's order.
func (e *Engine) Depends(ctx context.Context, entryID string) (_ knowledge.Dependencies, err error) {
	defer e.contain("depends", &err)
	if err := checkText("eid", entryID, MaxQueryBytes, "give a doc id, as librarian_locate shows for [entry] hits"); err != nil {
		return knowledge.Dependencies{}, err
	}
	if err := e.prepare(ctx); err != nil {
		return knowledge.Dependencies{}, err
	}
	d, ok, err := e.findDoc(ctx, entryID)
	if err != nil {
		return knowledge.Dependencies{}, err
	}
	if !ok {
		return knowledge.Dependencies{}, fmt.Errorf("%w: no entry '%s' in the library: an entry is a doc id or path (librarian_locate shows them as [entry] hits)",
			domain.ErrNotFound, wording.OneLine(entryID, 200))
	}
	deps := knowledge.Dependencies{DependsOn: []string{}, Dependents: []string{}}
	if deps.DependsOn, err = e.linkIDs(ctx, d.Path); err != nil {
		return knowledge.Dependencies{}, err
	}
	from, err := e.ix.LinksTo(ctx, d.Path)
	if err != nil {
		return knowledge.Dependencies{}, fmt.Errorf("index links: %w", err)
	}
	for _, p := range from {
		deps.Dependents = append(deps.Dependents, e.docID(ctx, p))
	}
	if deps.DependsOn == nil {
		deps.DependsOn = []string{}
	}
	return deps, nil
}

// Status implements retrieval.Finder: the index's size and age, the files
// changed since it was built, and the gaps and told knowledge recorded.
func (e *Engine) Status(ctx context.Context) (_ knowledge.EngineStatus, err error) {
	defer e.contain("status", &err)
	if err := e.prepare(ctx); err != nil {
		return knowledge.EngineStatus{}, err
	}
	st, err := e.ix.Status(ctx)
	if err != nil {
		return knowledge.EngineStatus{}, fmt.Errorf("index status: %w", err)
	}
	// The index is named, never located: its file's path (or its
	// database's host) is the server's business.
	index := map[string]any{"docs": st.Docs, "sections": st.Sections, "bytes": st.Bytes, "where": e.name}
	if st.BuiltAt > 0 {
		index["built_at"] = st.BuiltAt
	}
	report := map[string]any{"engine": Provider, "ok": true, "index": index}
	if changed, ok, err := e.changedSince(ctx); err != nil {
		e.logger.Warn("local engine: status: counting the files changed since indexing", "error", err.Error())
		report["files_changed_since"] = "unknown (the server's log says why)"
	} else if ok {
		report["files_changed_since"] = changed
	}
	// Counted by the journal's database: status reads no record but the
	// ten newest gaps, however many there are.
	gapCount, err := e.journal.Count(ctx, knowledge.KnowledgeGap)
	if err != nil {
		return knowledge.EngineStatus{}, fmt.Errorf("journal: %w", err)
	}
	toldCount, err := e.journal.Count(ctx, knowledge.KnowledgeTold)
	if err != nil {
		return knowledge.EngineStatus{}, fmt.Errorf("journal: %w", err)
	}
	gaps, err := e.journal.Knowledge(ctx, knowledge.KnowledgeGap, 10)
	if err != nil {
		return knowledge.EngineStatus{}, fmt.Errorf("journal: %w", err)
	}
	recent := []map[string]any{}
	for _, g := range gaps {
		r := map[string]any{"id": g.ID, "subject": g.Subject, "missing": g.Text, "caller": g.Tags.Caller, "at": g.At.Unix()}
		if g.Owner != "" {
			r["owner"] = g.Owner
		}
		recent = append(recent, r)
	}
	report["gaps"] = map[string]any{"count": gapCount, "recent": recent, "all": "librarian gaps"}
	report["told"] = map[string]any{"count": toldCount}
	data, err := json.Marshal(report)
	if err != nil {
		return knowledge.EngineStatus{}, err
	}
	s := knowledge.EngineStatus{JSON: data}
	if st.BuiltAt > 0 {
		s.IndexBuiltAt = time.Unix(st.BuiltAt, 0).UTC()
	}
	return s, nil
}

// changedSince counts the library's docs whose files differ from what the
// index holds: changed, added or removed since they were indexed.
func (e *Engine) changedSince(ctx context.Context) (int, bool, error) {
	if e.library == nil {
		return 0, false, nil
	}
	now, err := e.library.Catalog(ctx)
	if err != nil {
		return 0, false, err
	}
	stored, err := e.catalog(ctx)
	if err != nil {
		return 0, false, err
	}
	was := make(map[string]domain.Stamp, len(stored.Docs))
	for _, d := range stored.Docs {
		was[d.Path] = d.Stamp
	}
	changed := 0
	for _, d := range now.Docs {
		s, ok := was[d.Path]
		if !ok || d.Stamp != (domain.Stamp{}) && !d.Stamp.Equal(s) {
			changed++
		}
		delete(was, d.Path)
	}
	return changed + len(was), true, nil
}

// Tell implements retrieval.Learner: the knowledge is stored in the
// journal, with its session, caller and time, never in the library; ask
// and brief quote it from then on, marked as told.
func (e *Engine) Tell(ctx context.Context, t knowledge.Tell) (_ knowledge.Receipt, err error) {
	defer e.contain("tell", &err)
	if err := checkText("subject", t.Subject, MaxQueryBytes, "say what the knowledge is about"); err != nil {
		return knowledge.Receipt{}, err
	}
	if err := checkText("info", t.Info, MaxInfoBytes, "write what the engine should know"); err != nil {
		return knowledge.Receipt{}, err
	}
	if err := e.own(ctx, t.Tags.Session); err != nil {
		return knowledge.Receipt{}, err
	}
	k, err := e.journal.Learn(ctx, knowledge.Knowledge{Kind: knowledge.KnowledgeTold, Subject: strings.TrimSpace(t.Subject), Text: strings.TrimSpace(t.Info),
		Tags: t.Tags, Owner: knowledge.OwnerOf(ctx), At: e.now().UTC()})
	if err != nil {
		return knowledge.Receipt{}, fmt.Errorf("journal: %w", err)
	}
	e.log(ctx, "tell", t.Subject, t.Tags, []string{fmt.Sprintf("tell #%d", k.ID)}, knowledge.SessionGuidance{}, 0, "")
	return knowledge.Receipt{Stored: fmt.Sprintf("tell #%d (%q): librarian_ask and librarian_brief quote it from now on, marked as told, not documented", k.ID, wording.OneLine(k.Subject, 100))}, nil
}

// Gap implements retrieval.Learner: the gap is recorded for the docs team
// (librarian_status lists the recent ones, `librarian gaps` all of them).
func (e *Engine) Gap(ctx context.Context, g knowledge.Gap) (_ knowledge.Receipt, err error) {
	defer e.contain("gap", &err)
	if err := checkText("subject", g.Subject, MaxQueryBytes, "say what you were looking for"); err != nil {
		return knowledge.Receipt{}, err
	}
	if err := checkText("missing", g.Missing, MaxInfoBytes, "say what the engine could not answer"); err != nil {
		return knowledge.Receipt{}, err
	}
	if err := e.own(ctx, g.Tags.Session); err != nil {
		return knowledge.Receipt{}, err
	}
	k, err := e.journal.Learn(ctx, knowledge.Knowledge{Kind: knowledge.KnowledgeGap, Subject: strings.TrimSpace(g.Subject), Text: strings.TrimSpace(g.Missing),
		Tags: g.Tags, Owner: knowledge.OwnerOf(ctx), At: e.now().UTC()})
	if err != nil {
		return knowledge.Receipt{}, fmt.Errorf("journal: %w", err)
	}
	e.log(ctx, "gap", g.Subject, g.Tags, []string{fmt.Sprintf("gap #%d", k.ID)}, knowledge.SessionGuidance{}, 0, "")
	return knowledge.Receipt{Stored: fmt.Sprintf("gap #%d (%q): listed by librarian_status and `librarian gaps` for the docs team", k.ID, wording.OneLine(k.Subject, 100))}, nil
}

// Guide implements retrieval.Steward. Guidance is per session and lasts
// the engine's GuidanceTTL; a rejection (empty text, a malformed pattern,
// patterns that would hide every doc) is a receipt with Stored false and
// the reason, as seed 004's engine answers.
func (e *Engine) Guide(ctx context.Context, g knowledge.Guidance) (_ knowledge.GuidanceReceipt, err error) {
	defer e.contain("guide", &err)
	reject := func(reason string) (knowledge.GuidanceReceipt, error) {
		body, _ := json.Marshal(map[string]any{"stored": false, "reason": reason})
		return knowledge.GuidanceReceipt{Reason: reason, Body: body}, nil
	}
	switch {
	case strings.TrimSpace(g.Tags.Session) == "":
		return reject("'session' is empty: guidance belongs to a session")
	case strings.TrimSpace(g.Text) == "":
		return reject("guidance text is empty: write the guidance for the session's workers")
	case len(g.Text) > MaxInfoBytes:
		return reject(fmt.Sprintf("guidance text is %d bytes, over the %d-byte limit", len(g.Text), MaxInfoBytes))
	case len(g.Expect) > MaxInfoBytes:
		return reject(fmt.Sprintf("expect is %d bytes, over the %d-byte limit", len(g.Expect), MaxInfoBytes))
	case len(g.Exclude) > 200:
		return reject(fmt.Sprintf("exclude has %d patterns, over the limit of 200", len(g.Exclude)))
	}
	excludes, err := knowledge.ParseExcludes(g.Exclude)
	if err != nil {
		return reject(strings.TrimPrefix(err.Error(), domain.ErrInvalidArgument.Error()+": "))
	}
	if !excludes.Empty() {
		if err := e.prepare(ctx); err != nil {
			return knowledge.GuidanceReceipt{}, err
		}
		cat, err := e.catalog(ctx)
		if err != nil {
			return knowledge.GuidanceReceipt{}, err
		}
		hidden := 0
		for _, d := range cat.Docs {
			if excludes.Match(d.Path) != "" {
				hidden++
			}
		}
		if hidden > 0 && hidden == len(cat.Docs) {
			return reject(fmt.Sprintf("exclude %q matches every doc of the library (%d): nothing could be served; exclude folders or files, such as legacy/ or *.old.md",
				excludes.Patterns(), hidden))
		}
	}
	if err := e.own(ctx, g.Tags.Session); err != nil {
		return knowledge.GuidanceReceipt{}, err
	}
	now := e.now().UTC()
	stored, err := e.journal.SetGuidance(ctx, knowledge.SessionGuidance{
		Session: g.Tags.Session, Owner: knowledge.OwnerOf(ctx), Caller: g.Tags.Caller, Text: strings.TrimSpace(g.Text), Exclude: g.Exclude,
		Expect: strings.TrimSpace(g.Expect), SetAt: now, ExpiresAt: now.Add(e.ttl),
	})
	if err != nil {
		return knowledge.GuidanceReceipt{}, fmt.Errorf("journal: %w", err)
	}
	served := []string{}
	if len(g.Exclude) > 0 {
		served = append(served, "exclude: "+strings.Join(g.Exclude, ", "))
	}
	if stored.Expect != "" {
		served = append(served, "expect: "+stored.Expect)
	}
	e.log(ctx, "guide", g.Text, g.Tags, served, stored, 0, "")
	return knowledge.GuidanceReceipt{Stored: true, Version: strconv.Itoa(stored.Version), ExpiresAt: knowledge.Moment{At: stored.ExpiresAt}}, nil
}

// ClearGuide implements retrieval.Steward.
func (e *Engine) ClearGuide(ctx context.Context, session string) (_ bool, err error) {
	defer e.contain("clearing guidance", &err)
	if strings.TrimSpace(session) == "" {
		return false, invalid("'session' is empty: say whose guidance to clear")
	}
	if err := e.own(ctx, session); err != nil {
		return false, err
	}
	cleared, err := e.journal.ClearGuidance(ctx, session, e.now())
	if err != nil {
		return false, fmt.Errorf("journal: %w", err)
	}
	e.log(ctx, "guide", "(cleared)", knowledge.EngineTags{Session: session}, nil, knowledge.SessionGuidance{}, 0, "")
	return cleared, nil
}

// Interactions implements retrieval.Steward: the session's last limit
// rows, oldest first (limit 1 to MaxLogRows).
func (e *Engine) Interactions(ctx context.Context, session string, limit int) (_ []knowledge.Interaction, err error) {
	defer e.contain("session log", &err)
	if strings.TrimSpace(session) == "" {
		return nil, invalid("'session' is empty: say whose log to read")
	}
	if limit <= 0 || limit > MaxLogRows {
		return nil, invalid("'limit' is %d: give 1 to %d", limit, MaxLogRows)
	}
	if err := e.own(ctx, session); err != nil {
		return nil, err
	}
	rows, err := e.journal.Interactions(ctx, session, limit)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	out := make([]knowledge.Interaction, 0, len(rows))
	for _, r := range rows {
		i := knowledge.Interaction{At: knowledge.Moment{At: r.At}, Caller: r.Caller, Kind: r.Kind, ExcludedHits: r.ExcludedHits,
			Query: r.Query, Served: r.Served, Provider: r.Provider, Session: r.Session}
		if r.GuidanceVersion > 0 {
			i.GuidanceVersion = strconv.Itoa(r.GuidanceVersion)
		}
		out = append(out, i)
	}
	return out, nil
}

// Gaps returns the recorded gaps, newest first (limit <= 0: all), for
// `librarian gaps`.
func (e *Engine) Gaps(ctx context.Context, limit int) ([]knowledge.Knowledge, error) {
	return e.journal.Knowledge(ctx, knowledge.KnowledgeGap, limit)
}
