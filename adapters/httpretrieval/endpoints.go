package httpretrieval

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/librarian/librarian/domain/knowledge"
)

// The request bodies of the contract. Field order follows the seed's table;
// optional tags are omitted when empty.

type briefBody struct {
	Task    string `json:"task"`
	Surface string `json:"surface"`
	Session string `json:"session"`
	Project string `json:"project,omitempty"`
	Caller  string `json:"caller,omitempty"`
}

type turnBody struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type askBody struct {
	Query   string     `json:"query"`
	Surface string     `json:"surface"`
	Session string     `json:"session"`
	Project string     `json:"project,omitempty"`
	Caller  string     `json:"caller,omitempty"`
	History []turnBody `json:"history,omitempty"`
}

type tellBody struct {
	Subject string `json:"subject"`
	Info    string `json:"info"`
	Source  string `json:"source"`
	Session string `json:"session"`
	Project string `json:"project,omitempty"`
	Caller  string `json:"caller,omitempty"`
}

type gapBody struct {
	Subject string `json:"subject"`
	Missing string `json:"missing"`
	Source  string `json:"source"`
	Session string `json:"session"`
	Project string `json:"project,omitempty"`
	Caller  string `json:"caller,omitempty"`
}

type guideBody struct {
	Session string   `json:"session"`
	Text    string   `json:"text"`
	Exclude []string `json:"exclude"`
	Expect  string   `json:"expect"`
	Caller  string   `json:"caller,omitempty"`
}

// Brief is POST /api/library/brief.
func (e *Engine) Brief(ctx context.Context, q knowledge.BriefQuery) (knowledge.EngineAnswer, error) {
	c := call{policy: e.post, method: http.MethodPost, path: "/api/library/brief", body: briefBody{
		Task: q.Task, Surface: Surface, Session: q.Tags.Session, Project: q.Tags.Project, Caller: q.Tags.Caller,
	}}
	return e.answer(ctx, c, "brief")
}

// Ask is POST /api/library/ask, with the discussion's history when any.
func (e *Engine) Ask(ctx context.Context, q knowledge.AskQuery) (knowledge.EngineAnswer, error) {
	var history []turnBody
	for _, t := range q.History {
		history = append(history, turnBody{Role: t.Role, Content: t.Content})
	}
	c := call{policy: e.post, method: http.MethodPost, path: "/api/library/ask", body: askBody{
		Query: q.Query, Surface: Surface, Session: q.Tags.Session, Project: q.Tags.Project, Caller: q.Tags.Caller, History: history,
	}}
	return e.answer(ctx, c, "answer")
}

// answer reads a brief or ask reply: the text field, or busy, or error.
func (e *Engine) answer(ctx context.Context, c call, textField string) (knowledge.EngineAnswer, error) {
	o, err := e.object(ctx, c)
	if err != nil {
		return knowledge.EngineAnswer{}, err
	}
	if o.boolean("busy") {
		b := &knowledge.Busy{}
		if o.has("position") {
			b.Position, b.HasPosition = o.integer("position"), true
		}
		if o.has("eta_s") {
			b.ETA, b.HasETA = time.Duration(o.number("eta_s")*float64(time.Second)), true
		}
		return result(knowledge.EngineAnswer{Busy: b}, o)
	}
	a := knowledge.EngineAnswer{Text: o.requiredString(textField), Provider: o.str("provider")}
	return result(a, o)
}

// Locate is GET /api/library/locate; tags go in the query, without project.
func (e *Engine) Locate(ctx context.Context, q knowledge.LocateQuery) (knowledge.Locations, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	query := url.Values{"q": {q.Query}, "limit": {strconv.Itoa(limit)}, "surface": {Surface}, "session": {q.Tags.Session}}
	if q.Tags.Caller != "" {
		query.Set("caller", q.Tags.Caller)
	}
	o, err := e.object(ctx, call{policy: e.get, method: http.MethodGet, path: "/api/library/locate", query: query})
	if err != nil {
		return knowledge.Locations{}, err
	}
	o.require("hits")
	loc := knowledge.Locations{Source: o.str("source"), ExcludedHits: o.integer("excluded_hits"), Footer: o.str("footer")}
	for i, item := range o.list("hits") {
		h := o.item("hits", i, item)
		if h == nil {
			break
		}
		hit := knowledge.Hit{
			Kind: h.str("kind"), Name: h.str("name"), File: h.str("file"), Line: h.integer("line"),
			Signature: h.str("signature"), Stale: h.boolean("stale"),
		}
		if hit.Kind == "entry" {
			hit.DependsOn = h.texts("depends_on")
		}
		loc.Hits = append(loc.Hits, hit)
	}
	return result(loc, o)
}

// Depends is GET /api/library/depends?eid=ID; no tags.
func (e *Engine) Depends(ctx context.Context, entryID string) (knowledge.Dependencies, error) {
	o, err := e.object(ctx, call{policy: e.get, method: http.MethodGet, path: "/api/library/depends", query: url.Values{"eid": {entryID}}})
	if err != nil {
		return knowledge.Dependencies{}, err
	}
	if !o.has("dependents") && !o.has("depends_on") {
		o.setErr(fmt.Errorf("%w: the reply to %s has neither 'dependents' nor 'depends_on'", knowledge.ErrEngineReply, o.endpoint))
	}
	d := knowledge.Dependencies{Dependents: o.texts("dependents"), DependsOn: o.texts("depends_on")}
	return result(d, o)
}

// Status is GET /api/library/status: any JSON, kept verbatim; the index's
// build time is read from index.built_at (epoch seconds) when present.
func (e *Engine) Status(ctx context.Context) (knowledge.EngineStatus, error) {
	c := call{policy: e.get, method: http.MethodGet, path: "/api/library/status"}
	body, err := e.do(ctx, c)
	if err != nil {
		return knowledge.EngineStatus{}, err
	}
	v, err := decode(c, body)
	if err != nil {
		return knowledge.EngineStatus{}, err
	}
	if err := engineError(c, v); err != nil {
		return knowledge.EngineStatus{}, err
	}
	st := knowledge.EngineStatus{JSON: bytes.TrimSpace(body)}
	if root, ok := v.(map[string]any); ok {
		if index, ok := root["index"].(map[string]any); ok {
			if secs, ok := epochSeconds(index["built_at"]); ok {
				st.IndexBuiltAt = secs
			}
		}
	}
	return st, nil
}

// Tell is POST /api/library/tell.
func (e *Engine) Tell(ctx context.Context, t knowledge.Tell) (knowledge.Receipt, error) {
	return e.receipt(ctx, call{policy: e.post, method: http.MethodPost, path: "/api/library/tell", body: tellBody{
		Subject: t.Subject, Info: t.Info, Source: Surface, Session: t.Tags.Session, Project: t.Tags.Project, Caller: t.Tags.Caller,
	}})
}

// Gap is POST /api/library/gap.
func (e *Engine) Gap(ctx context.Context, g knowledge.Gap) (knowledge.Receipt, error) {
	return e.receipt(ctx, call{policy: e.post, method: http.MethodPost, path: "/api/library/gap", body: gapBody{
		Subject: g.Subject, Missing: g.Missing, Source: Surface, Session: g.Tags.Session, Project: g.Tags.Project, Caller: g.Tags.Caller,
	}})
}

func (e *Engine) receipt(ctx context.Context, c call) (knowledge.Receipt, error) {
	o, err := e.object(ctx, c)
	if err != nil {
		return knowledge.Receipt{}, err
	}
	r := knowledge.Receipt{Stored: o.requiredText("stored")}
	return result(r, o)
}

// Guide is POST /api/library/guide under the guidance policy (30 s, no retry).
// A 4xx is a rejection: its reason (or detail) and body come back in the
// receipt so they reach the agent verbatim.
func (e *Engine) Guide(ctx context.Context, g knowledge.Guidance) (knowledge.GuidanceReceipt, error) {
	exclude := g.Exclude
	if exclude == nil {
		exclude = []string{}
	}
	c := call{policy: e.guide, method: http.MethodPost, path: "/api/library/guide", body: guideBody{
		Session: g.Tags.Session, Text: g.Text, Exclude: exclude, Expect: g.Expect, Caller: g.Tags.Caller,
	}}
	r, err := e.exchange(ctx, c)
	if err != nil {
		return knowledge.GuidanceReceipt{}, err
	}
	if r.status >= 400 && r.status <= 499 {
		rec := knowledge.GuidanceReceipt{Status: r.status, Body: keptBody(r.body)}
		if v, err := decode(c, r.body); err == nil {
			if m, ok := v.(map[string]any); ok {
				rec.Reason = reason(m)
			}
		}
		return rec, nil
	}
	if r.status < 200 || r.status > 299 {
		return knowledge.GuidanceReceipt{}, statusError(c, r)
	}
	o, err := parseObject(c, r.body)
	if err != nil {
		return knowledge.GuidanceReceipt{}, err
	}
	rec := knowledge.GuidanceReceipt{
		Stored:    o.boolean("stored"),
		Version:   o.text("version"),
		ExpiresAt: o.moment("expires_at"),
	}
	if !rec.Stored {
		rec.Reason = reason(o.m)
		rec.Body = keptBody(r.body)
	}
	return result(rec, o)
}

// keptBody is the start of a reply body kept for a message: trimmed, at
// most keptErrorBody bytes.
func keptBody(body []byte) []byte {
	body = bytes.TrimSpace(body)
	if len(body) > keptErrorBody {
		body = body[:keptErrorBody]
	}
	return body
}

// reason is a rejection's `reason`, else its `detail` (FastAPI's error
// field, which may be a string or a list of problems).
func reason(m map[string]any) string {
	for _, name := range []string{"reason", "detail"} {
		switch v := m[name].(type) {
		case nil:
		case string:
			if v != "" {
				return excerpt(v, quotedRunes)
			}
		default:
			return excerpt(compact(v), quotedRunes)
		}
	}
	return ""
}

// ClearGuide is DELETE /api/library/guide?session=S under the guidance policy.
func (e *Engine) ClearGuide(ctx context.Context, session string) (bool, error) {
	c := call{policy: e.guide, method: http.MethodDelete, path: "/api/library/guide", query: url.Values{"session": {session}}}
	o, err := e.object(ctx, c)
	if err != nil {
		return false, err
	}
	o.require("cleared")
	cleared := o.boolean("cleared")
	return result(cleared, o)
}

// Interactions is GET /api/library/interactions?session=S&limit=N. The
// reply may be a list of rows or an object holding them under rows,
// interactions or items.
func (e *Engine) Interactions(ctx context.Context, session string, limit int) ([]knowledge.Interaction, error) {
	c := call{policy: e.get, method: http.MethodGet, path: "/api/library/interactions",
		query: url.Values{"session": {session}, "limit": {strconv.Itoa(limit)}}}
	body, err := e.do(ctx, c)
	if err != nil {
		return nil, err
	}
	v, err := decode(c, body)
	if err != nil {
		return nil, err
	}
	if err := engineError(c, v); err != nil {
		return nil, err
	}
	var rows []any
	field := "rows"
	switch v := v.(type) {
	case []any:
		rows, field = v, ""
	case map[string]any:
		found := false
		for _, name := range []string{"rows", "interactions", "items"} {
			if raw, ok := v[name]; ok && raw != nil {
				list, ok := raw.([]any)
				if !ok {
					return nil, shapeError(c, fmt.Sprintf("'%s' is %s, not a list", name, describe(raw)))
				}
				rows, field, found = list, name, true
				break
			}
		}
		if !found {
			return nil, shapeError(c, "is an object without a 'rows', 'interactions' or 'items' list")
		}
	default:
		return nil, shapeError(c, fmt.Sprintf("is %s, not a list of rows or an object holding one", describe(v)))
	}
	o := newObject(c.endpoint(), nil)
	var out []knowledge.Interaction
	for i, raw := range rows {
		row := o.item(field, i, raw)
		if row == nil {
			break
		}
		out = append(out, knowledge.Interaction{
			At:              row.moment("t"),
			Caller:          row.str("caller"),
			Kind:            row.str("kind"),
			GuidanceVersion: row.text("guidance_version"),
			ExcludedHits:    row.integer("excluded_hits"),
			Query:           row.str("query"),
			Served:          row.texts("served"),
			Provider:        row.str("provider"),
			Session:         row.str("session"),
		})
	}
	return result(out, o)
}
