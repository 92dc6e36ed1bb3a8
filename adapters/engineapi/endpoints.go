package engineapi

import (
	"net/http"
	"strconv"

	"github.com/librarian/librarian/domain/knowledge"
)

// The request bodies of seed 004's table. Pointers tell a missing field
// from an empty one; unknown fields are ignored, as the seed's FastAPI
// engine does.
type tagged struct {
	Session *string `json:"session"`
	Project *string `json:"project"`
	Caller  *string `json:"caller"`
	Surface *string `json:"surface"`
	Source  *string `json:"source"`
}

func (t tagged) tags() knowledge.EngineTags {
	return knowledge.EngineTags{Session: str(t.Session), Project: str(t.Project), Caller: str(t.Caller)}
}

func (h *Handler) locate(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if !q.Has("q") {
		badRequest(w, "query parameter 'q' is missing")
		return
	}
	limit, ok := queryInt(w, r, "limit", 10)
	if !ok {
		return
	}
	loc, err := h.engine.Locate(r.Context(), knowledge.LocateQuery{Query: q.Get("q"), Limit: limit,
		Tags: knowledge.EngineTags{Session: q.Get("session"), Caller: q.Get("caller")}})
	if err != nil {
		h.fail(w, r, err, false)
		return
	}
	hits := make([]map[string]any, 0, len(loc.Hits))
	for _, hit := range loc.Hits {
		m := map[string]any{"kind": hit.Kind, "name": hit.Name, "file": hit.File, "stale": hit.Stale}
		if hit.Line > 0 {
			m["line"] = hit.Line
		}
		if hit.Signature != "" {
			m["signature"] = hit.Signature
		}
		if hit.Kind == "entry" {
			deps := hit.DependsOn
			if deps == nil {
				deps = []string{}
			}
			m["depends_on"] = deps
		}
		hits = append(hits, m)
	}
	reply := map[string]any{"source": loc.Source, "hits": hits, "excluded_hits": loc.ExcludedHits}
	if loc.Footer != "" {
		reply["footer"] = loc.Footer
	}
	writeJSON(w, http.StatusOK, reply)
}

// answer writes a brief or an answer, or the busy shape.
func answer(w http.ResponseWriter, field string, a knowledge.EngineAnswer) {
	if a.Busy != nil {
		reply := map[string]any{"busy": true}
		if a.Busy.HasPosition {
			reply["position"] = a.Busy.Position
		}
		if a.Busy.HasETA {
			reply["eta_s"] = a.Busy.ETA.Seconds()
		}
		writeJSON(w, http.StatusOK, reply)
		return
	}
	reply := map[string]any{field: a.Text}
	if field == "answer" && a.Provider != "" {
		reply["provider"] = a.Provider
	}
	writeJSON(w, http.StatusOK, reply)
}

func (h *Handler) brief(w http.ResponseWriter, r *http.Request) {
	var body struct {
		tagged
		Task *string `json:"task"`
	}
	if !readBody(w, r, &body) || !required(w, field{"task", body.Task}) {
		return
	}
	a, err := h.engine.Brief(r.Context(), knowledge.BriefQuery{Task: *body.Task, Tags: body.tags()})
	if err != nil {
		h.fail(w, r, err, true)
		return
	}
	answer(w, "brief", a)
}

func (h *Handler) ask(w http.ResponseWriter, r *http.Request) {
	var body struct {
		tagged
		Query   *string `json:"query"`
		History []struct {
			Role    *string `json:"role"`
			Content *string `json:"content"`
		} `json:"history"`
	}
	if !readBody(w, r, &body) || !required(w, field{"query", body.Query}) {
		return
	}
	var history []knowledge.Turn
	for i, t := range body.History {
		if t.Role == nil || t.Content == nil {
			badRequest(w, "body field 'history[%d]' needs both 'role' and 'content'", i)
			return
		}
		history = append(history, knowledge.Turn{Role: *t.Role, Content: *t.Content})
	}
	a, err := h.engine.Ask(r.Context(), knowledge.AskQuery{Query: *body.Query, History: history, Tags: body.tags()})
	if err != nil {
		h.fail(w, r, err, true)
		return
	}
	answer(w, "answer", a)
}

func (h *Handler) depends(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if !q.Has("eid") {
		badRequest(w, "query parameter 'eid' is missing")
		return
	}
	d, err := h.engine.Depends(r.Context(), q.Get("eid"))
	if err != nil {
		h.fail(w, r, err, false)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"dependents": nonNil(d.Dependents), "depends_on": nonNil(d.DependsOn)})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (h *Handler) status(w http.ResponseWriter, r *http.Request) {
	s, err := h.engine.Status(r.Context())
	if err != nil {
		h.fail(w, r, err, false)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(s.JSON)
}

func (h *Handler) tell(w http.ResponseWriter, r *http.Request) {
	var body struct {
		tagged
		Subject *string `json:"subject"`
		Info    *string `json:"info"`
	}
	if !readBody(w, r, &body) || !required(w, field{"subject", body.Subject}, field{"info", body.Info}) {
		return
	}
	rc, err := h.engine.Tell(r.Context(), knowledge.Tell{Subject: *body.Subject, Info: *body.Info, Tags: body.tags()})
	if err != nil {
		h.fail(w, r, err, true)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"stored": rc.Stored})
}

func (h *Handler) gap(w http.ResponseWriter, r *http.Request) {
	var body struct {
		tagged
		Subject *string `json:"subject"`
		Missing *string `json:"missing"`
	}
	if !readBody(w, r, &body) || !required(w, field{"subject", body.Subject}, field{"missing", body.Missing}) {
		return
	}
	rc, err := h.engine.Gap(r.Context(), knowledge.Gap{Subject: *body.Subject, Missing: *body.Missing, Tags: body.tags()})
	if err != nil {
		h.fail(w, r, err, true)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"stored": rc.Stored})
}

func (h *Handler) guide(w http.ResponseWriter, r *http.Request) {
	var body struct {
		tagged
		Text    *string  `json:"text"`
		Exclude []string `json:"exclude"`
		Expect  *string  `json:"expect"`
	}
	if !readBody(w, r, &body) || !required(w, field{"session", body.Session}, field{"text", body.Text}) {
		return
	}
	rc, err := h.engine.Guide(r.Context(), knowledge.Guidance{Text: *body.Text, Exclude: body.Exclude, Expect: str(body.Expect), Tags: body.tags()})
	if err != nil {
		h.fail(w, r, err, false)
		return
	}
	if !rc.Stored {
		reply := map[string]any{"stored": false, "reason": rc.Reason}
		writeJSON(w, http.StatusUnprocessableEntity, reply)
		return
	}
	reply := map[string]any{"stored": true}
	if rc.Version != "" {
		if n, err := strconv.Atoi(rc.Version); err == nil {
			reply["version"] = n
		} else {
			reply["version"] = rc.Version
		}
	}
	if m := moment(rc.ExpiresAt); m != nil {
		reply["expires_at"] = m
	}
	writeJSON(w, http.StatusOK, reply)
}

// moment writes a time as epoch seconds (as the seed's engine does), or
// the engine's own text; nil when there is none.
func moment(m knowledge.Moment) any {
	switch {
	case !m.At.IsZero():
		return m.At.Unix()
	case m.Text != "":
		return m.Text
	}
	return nil
}

func (h *Handler) clearGuide(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if !q.Has("session") {
		badRequest(w, "query parameter 'session' is missing")
		return
	}
	cleared, err := h.engine.ClearGuide(r.Context(), q.Get("session"))
	if err != nil {
		h.fail(w, r, err, false)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"cleared": cleared})
}

func (h *Handler) interactions(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if !q.Has("session") {
		badRequest(w, "query parameter 'session' is missing")
		return
	}
	limit, ok := queryInt(w, r, "limit", 20)
	if !ok {
		return
	}
	rows, err := h.engine.Interactions(r.Context(), q.Get("session"), limit)
	if err != nil {
		h.fail(w, r, err, false)
		return
	}
	out := make([]map[string]any, 0, len(rows))
	for _, i := range rows {
		row := map[string]any{"kind": i.Kind, "query": i.Query, "served": nonNil(i.Served), "excluded_hits": i.ExcludedHits}
		if t := moment(i.At); t != nil {
			row["t"] = t
		}
		for k, v := range map[string]string{"caller": i.Caller, "guidance_version": i.GuidanceVersion, "provider": i.Provider, "session": i.Session} {
			if v != "" {
				row[k] = v
			}
		}
		if n, err := strconv.Atoi(i.GuidanceVersion); err == nil {
			row["guidance_version"] = n
		}
		out = append(out, row)
	}
	writeJSON(w, http.StatusOK, map[string]any{"rows": out})
}
