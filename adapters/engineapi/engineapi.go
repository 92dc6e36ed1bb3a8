// Package engineapi is a driving adapter: it serves any retrieval.Engine
// (the local one, or a remote one it fronts) over seed 004's HTTP+JSON
// contract, every path under /api/library/, so seed 004's own client,
// another Librarian (adapters/httpretrieval) or any HTTP client can use one
// team engine. It is an http.Handler; the HTTP listener mounts it behind
// its own authentication.
package engineapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/ports/retrieval"
)

// Prefix is where the API lives: mount the handler on it.
const Prefix = "/api/library/"

// MaxBodyBytes bounds a request body.
const MaxBodyBytes = 1 << 20

// Options tune the handler.
type Options struct {
	// Logger receives a line per failed request (nil: slog.Default()).
	// Never stdout.
	Logger *slog.Logger
}

// Handler serves seed 004's contract over an engine.
type Handler struct {
	engine retrieval.Engine
	log    *slog.Logger
	routes map[string]func(w http.ResponseWriter, r *http.Request)
}

// New returns the handler over engine. It serves the paths of seed 004's
// table, each with its method (405 for another, with Allow), answers 404
// for any other path, and always answers JSON.
func New(engine retrieval.Engine, o Options) *Handler {
	h := &Handler{engine: engine, log: o.Logger}
	if h.log == nil {
		h.log = slog.Default()
	}
	h.routes = map[string]func(http.ResponseWriter, *http.Request){
		"GET locate":       h.locate,
		"POST brief":       h.brief,
		"POST ask":         h.ask,
		"GET depends":      h.depends,
		"GET status":       h.status,
		"POST tell":        h.tell,
		"POST gap":         h.gap,
		"POST guide":       h.guide,
		"DELETE guide":     h.clearGuide,
		"GET interactions": h.interactions,
	}
	return h
}

var _ http.Handler = (*Handler)(nil)

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, Prefix)
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]any{"detail": fmt.Sprintf("no such endpoint: %s %s (the engine API is under %s)", r.Method, r.URL.Path, Prefix)})
		return
	}
	name = strings.TrimSuffix(name, "/")
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	if route := h.routes[method+" "+name]; route != nil {
		r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
		route(w, r.WithContext(knowledge.WithOwner(r.Context(), owner(r))))
		return
	}
	var allow []string
	for _, m := range []string{"GET", "POST", "DELETE"} {
		if h.routes[m+" "+name] != nil {
			allow = append(allow, m)
		}
	}
	if len(allow) == 0 {
		writeJSON(w, http.StatusNotFound, map[string]any{"detail": fmt.Sprintf("no such endpoint: %s %s", r.Method, r.URL.Path)})
		return
	}
	w.Header().Set("Allow", strings.Join(allow, ", "))
	writeJSON(w, http.StatusMethodNotAllowed, map[string]any{"detail": fmt.Sprintf("%s %s: use %s", r.Method, r.URL.Path, strings.Join(allow, " or "))})
}

// owner is the name of the request's bearer token, as the listener's
// authentication recorded it (go-sdk's auth middleware); "" on a server
// that takes no token. Whatever `caller` a body claims, this is who asks:
// the journal records it, and sessions are scoped to it.
func owner(r *http.Request) string {
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
		return ti.UserID
	}
	return ""
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		status, data = http.StatusInternalServerError, []byte(`{"detail": "the reply could not be encoded"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}

// badRequest is the caller's mistake: 422 with FastAPI's `detail`, as the
// seed's engine answers a request that does not fit its schema.
func badRequest(w http.ResponseWriter, format string, args ...any) {
	writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"detail": fmt.Sprintf(format, args...)})
}

// fail answers an engine error. Endpoints whose reply has an `error` field
// (brief, ask, tell, gap) carry an engine failure there, as the seed says;
// the caller's mistakes are 422, unknown entries and other tokens' sessions
// 404, a token past its journal quota 403, the engine's own database down
// 503, and an engine this one fronts that is unreachable or slow 502 and
// 504.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error, hasErrorField bool) {
	var se *knowledge.EngineStatusError
	var ee *knowledge.EngineError
	status := http.StatusInternalServerError
	switch {
	case errors.Is(err, context.Canceled) && r.Context().Err() != nil:
		return // the client left; nobody reads an answer
	case errors.Is(err, domain.ErrInvalidArgument):
		badRequest(w, "%s", strings.TrimPrefix(err.Error(), domain.ErrInvalidArgument.Error()+": "))
		return
	case errors.Is(err, domain.ErrNotFound):
		writeJSON(w, http.StatusNotFound, map[string]any{"detail": strings.TrimPrefix(err.Error(), domain.ErrNotFound.Error()+": ")})
		return
	case errors.Is(err, knowledge.ErrQuota):
		writeJSON(w, http.StatusForbidden, map[string]any{"detail": err.Error()})
		return
	case errors.Is(err, knowledge.ErrStoreUnreachable):
		status = http.StatusServiceUnavailable
		w.Header().Set("Retry-After", "5")
	case errors.As(err, &ee) && hasErrorField:
		writeJSON(w, http.StatusOK, map[string]any{"error": ee.Message})
		return
	case errors.As(err, &se):
		status = http.StatusBadGateway
	case errors.Is(err, knowledge.ErrEngineUnreachable), errors.Is(err, knowledge.ErrEngineReply):
		status = http.StatusBadGateway
	case errors.Is(err, knowledge.ErrEngineSlow), errors.Is(err, context.DeadlineExceeded):
		status = http.StatusGatewayTimeout
	case hasErrorField:
		h.log.Warn("engine API: the engine failed", "endpoint", r.Method+" "+r.URL.Path, "error", err.Error())
		writeJSON(w, http.StatusOK, map[string]any{"error": err.Error()})
		return
	}
	h.log.Warn("engine API: the engine failed", "endpoint", r.Method+" "+r.URL.Path, "status", status, "error", err.Error())
	writeJSON(w, status, map[string]any{"detail": err.Error()})
}

// readBody decodes a JSON object body into dst, answering 422 (and
// returning false) for a body that is not one, naming the field that has
// the wrong type.
func readBody(w http.ResponseWriter, r *http.Request, dst any) bool {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeJSON(w, http.StatusRequestEntityTooLarge, map[string]any{"detail": fmt.Sprintf("the body is over %d bytes", MaxBodyBytes)})
			return false
		}
		badRequest(w, "reading the body: %v", err)
		return false
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		badRequest(w, "the body is empty: send a JSON object")
		return false
	}
	if err := json.Unmarshal(data, dst); err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &te) && te.Field != "":
			badRequest(w, "body field '%s' must be %s, not %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
		case errors.As(err, &te):
			badRequest(w, "the body must be a JSON object, not %s", te.Value)
		case errors.As(err, &se):
			badRequest(w, "the body is not valid JSON (at byte %d): %v", se.Offset, err)
		default:
			badRequest(w, "the body is not valid JSON: %v", err)
		}
		return false
	}
	return true
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "slice":
		return "a list"
	case "struct", "map":
		return "an object"
	case "bool":
		return "true or false"
	default:
		return "a number"
	}
}

// field is a required body field: its name and where it was decoded.
type field struct {
	name  string
	value *string
}

// required answers 422 for the first required field that is missing.
func required(w http.ResponseWriter, fields ...field) bool {
	for _, f := range fields {
		if f.value == nil {
			badRequest(w, "body field '%s' is missing", f.name)
			return false
		}
	}
	return true
}

// queryInt reads an optional integer query parameter.
func queryInt(w http.ResponseWriter, r *http.Request, name string, def int) (int, bool) {
	raw := r.URL.Query().Get(name)
	if raw == "" {
		return def, true
	}
	n, err := strconv.Atoi(strings.TrimSpace(raw))
	if err != nil {
		badRequest(w, "query parameter '%s' is %q: give a whole number", name, raw)
		return 0, false
	}
	return n, true
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
