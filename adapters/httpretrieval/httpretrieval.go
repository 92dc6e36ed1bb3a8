// Package httpretrieval is the retrieval port's `remote` adapter: a client
// of seed 004's engine over HTTP+JSON, on github.com/hashicorp/go-retryablehttp.
// It implements the seed's contract table exactly (methods, paths, which
// tags go in the body and which in the query, request fields, the reply
// fields it reads) and its failure rules:
//
//   - a refused or dropped connection is retried after 2, 4 and 8 s, then
//     reported as the engine being unreachable at its URL;
//   - a read timeout (30 s for GET, 180 s for POST) is a slow engine, not retried;
//   - an HTTP error status is "engine answered N", not retried;
//   - guidance (POST and DELETE /api/library/guide) has its own client with
//     a 30 s timeout and no retry, and a 4xx rejection keeps the engine's body.
//
// Every wait and timeout is an Option, so tests run in milliseconds. The
// adapter holds no state besides its HTTP clients: it is safe for
// concurrent use.
package httpretrieval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/ports/retrieval"
)

// DefaultURL is the engine's address when LIBRARIAN_URL is not set.
const DefaultURL = "http://127.0.0.1:8000"

// Surface is the `surface` value of locate, brief and ask, and the `source`
// of tell and gap: where the call came from, as seed 004's client says.
const Surface = "mcp"

// Defaults of the seed's failure rules.
var (
	DefaultWaits        = []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second}
	DefaultGetTimeout   = 30 * time.Second
	DefaultPostTimeout  = 180 * time.Second
	DefaultGuideTimeout = 30 * time.Second
)

const (
	defaultDialTimeout = 5 * time.Second
	// DefaultMaxReplyBytes bounds what the adapter reads of one reply: far
	// above any real answer, low enough that a runaway engine cannot exhaust
	// memory.
	DefaultMaxReplyBytes = 8 << 20
	// keptErrorBody is how much of an error reply is kept for the message.
	keptErrorBody = 4 << 10
)

// Options configure an Engine. The zero value talks to DefaultURL with the
// seed's waits and timeouts.
type Options struct {
	// URL is the engine's base URL (LIBRARIAN_URL); paths go under it.
	URL string
	// Waits are the pauses before each retry of a refused or dropped
	// connection; nil means DefaultWaits (2, 4, 8 s). A non-nil empty slice
	// disables retrying.
	Waits []time.Duration
	// Read timeouts per attempt, the reply body included; 0 means the default.
	GetTimeout, PostTimeout, GuideTimeout time.Duration
	// DialTimeout bounds connecting (0: 5 s); it is kept under half the
	// shortest read timeout so a slow dial is never mistaken for a slow engine.
	DialTimeout time.Duration
	// MaxReplyBytes bounds one reply (0: DefaultMaxReplyBytes).
	MaxReplyBytes int64
	// Transport carries the requests (nil: a pooled copy of
	// http.DefaultTransport with DialTimeout). Tests wrap it to count dials.
	Transport http.RoundTripper
	// Logger receives a line per retry (nil: none). Never stdout.
	Logger *slog.Logger
}

// Engine is the remote engine. Construct it with New.
type Engine struct {
	base     string // without a trailing '/'
	get      *retryablehttp.Client
	post     *retryablehttp.Client
	guide    *retryablehttp.Client
	maxReply int64
}

var _ retrieval.Engine = (*Engine)(nil)

// New checks the options and builds the engine's clients. It does not
// contact the engine. A URL that is not an absolute http(s) URL is an error
// naming it.
func New(opts Options) (*Engine, error) {
	base := strings.TrimSpace(opts.URL)
	if base == "" {
		base = DefaultURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("%w: engine URL %q (LIBRARIAN_URL) must be an absolute http:// or https:// URL without query, like %s",
			domain.ErrInvalidArgument, opts.URL, DefaultURL)
	}
	waits := opts.Waits
	if waits == nil {
		waits = DefaultWaits
	}
	for i, w := range waits {
		if w < 0 {
			return nil, fmt.Errorf("%w: retry wait %d is negative (%s)", domain.ErrInvalidArgument, i, w)
		}
	}
	getTimeout := orDefault(opts.GetTimeout, DefaultGetTimeout)
	postTimeout := orDefault(opts.PostTimeout, DefaultPostTimeout)
	guideTimeout := orDefault(opts.GuideTimeout, DefaultGuideTimeout)
	transport := opts.Transport
	if transport == nil {
		dial := orDefault(opts.DialTimeout, defaultDialTimeout)
		dial = min(dial, getTimeout/2, postTimeout/2, guideTimeout/2)
		t, ok := http.DefaultTransport.(*http.Transport)
		if ok {
			t = t.Clone()
		} else { // replaced by someone else: start from the standard settings
			t = &http.Transport{Proxy: http.ProxyFromEnvironment, MaxIdleConns: 100, IdleConnTimeout: 90 * time.Second}
		}
		t.DialContext = (&net.Dialer{Timeout: dial, KeepAlive: 30 * time.Second}).DialContext
		transport = t
	}
	maxReply := opts.MaxReplyBytes
	if maxReply <= 0 {
		maxReply = DefaultMaxReplyBytes
	}
	log := opts.Logger
	e := &Engine{
		base:     strings.TrimRight(u.String(), "/"),
		get:      newClient(transport, getTimeout, waits, log),
		post:     newClient(transport, postTimeout, waits, log),
		guide:    newClient(transport, guideTimeout, nil, log),
		maxReply: maxReply,
	}
	return e, nil
}

// URL is the engine's base URL, as requests use it.
func (e *Engine) URL() string { return e.base }

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// newClient is one retrying client: retries only connection failures, with
// waits[i] before retry i+1, and reports how many attempts it made.
func newClient(transport http.RoundTripper, timeout time.Duration, waits []time.Duration, log *slog.Logger) *retryablehttp.Client {
	return &retryablehttp.Client{
		HTTPClient: &http.Client{Transport: transport, Timeout: timeout},
		Logger:     nil, // untyped nil: the library logs nothing; retries are logged below
		RetryMax:   len(waits),
		CheckRetry: retryConnectionFailures,
		Backoff: func(_, _ time.Duration, attempt int, _ *http.Response) time.Duration {
			if len(waits) == 0 { // RetryMax is 0 then: never called
				return 0
			}
			wait := waits[min(attempt, len(waits)-1)]
			if log != nil {
				log.Warn("engine connection failed, retrying", "attempt", attempt+1, "wait", wait)
			}
			return wait
		},
		ErrorHandler: func(resp *http.Response, err error, attempts int) (*http.Response, error) {
			if resp != nil {
				resp.Body.Close()
			}
			return nil, &attemptsError{attempts: attempts, err: err}
		},
	}
}

// retryConnectionFailures is the seed's retry rule: retry a refused or
// dropped connection, nothing else (no status, no timeout, no bad reply).
func retryConnectionFailures(ctx context.Context, _ *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	return err != nil && isConnectionFailure(err), nil
}

// isConnectionFailure: the engine could not be reached, or closed the
// connection before it answered. A dial error of any kind (refused, no such
// host, no route, dial timeout) counts; a read timeout does not.
func isConnectionFailure(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		return true
	}
	if isTimeout(err) {
		return false
	}
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNABORTED) || errors.Is(err, syscall.EPIPE)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded)
}

// attemptsError carries how many attempts a failed request made.
type attemptsError struct {
	attempts int
	err      error
}

func (e *attemptsError) Error() string { return e.err.Error() }
func (e *attemptsError) Unwrap() error { return e.err }

// errReplyTooLarge marks a reply cut at MaxReplyBytes.
var errReplyTooLarge = errors.New("reply too large")

// call is one request of the contract.
type call struct {
	client *retryablehttp.Client
	method string
	path   string
	query  url.Values
	body   any // marshalled to JSON; nil for none
}

func (c call) endpoint() string { return c.method + " " + c.path }

// reply is what came back: any status, the body read in full.
type reply struct {
	status int
	body   []byte
}

// exchange sends c and reads the whole reply, applying the failure rules.
// A reply with any HTTP status is returned; transport failures are
// classified into the domain's engine errors.
func (e *Engine) exchange(ctx context.Context, c call) (reply, error) {
	target := e.base + c.path
	if len(c.query) > 0 {
		target += "?" + c.query.Encode()
	}
	var body any
	if c.body != nil {
		data, err := json.Marshal(c.body)
		if err != nil {
			return reply{}, fmt.Errorf("encoding the request to %s: %w", c.endpoint(), err)
		}
		body = data
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, c.method, target, body)
	if err != nil {
		return reply{}, fmt.Errorf("%w: cannot build %s for %s: %v", domain.ErrInvalidArgument, c.endpoint(), e.base, err)
	}
	req.Header.Set("Accept", "application/json")
	if c.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	var got reply
	// Reading the body inside the retry loop means a connection dropped
	// half-way through a reply is retried like one dropped before it, and a
	// body that stalls is caught by the same read timeout as the headers.
	req.SetResponseHandler(func(resp *http.Response) error {
		data, err := io.ReadAll(io.LimitReader(resp.Body, e.maxReply+1))
		if err != nil {
			return err
		}
		if int64(len(data)) > e.maxReply {
			return errReplyTooLarge
		}
		got = reply{status: resp.StatusCode, body: data}
		return nil
	})
	resp, err := c.client.Do(req)
	if err != nil {
		return reply{}, e.failure(ctx, c, err)
	}
	resp.Body.Close()
	return got, nil
}

// failure turns a failed exchange into the error an agent reads.
func (e *Engine) failure(ctx context.Context, c call, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s to the engine at %s: %w", c.endpoint(), e.base, ctx.Err())
	}
	attempts := 1
	var ae *attemptsError
	if errors.As(err, &ae) {
		attempts = ae.attempts
	}
	switch {
	case errors.Is(err, errReplyTooLarge):
		return fmt.Errorf("%w: the reply to %s from %s is larger than %d bytes", domain.ErrEngineReply, c.endpoint(), e.base, e.maxReply)
	case isConnectionFailure(err):
		return fmt.Errorf("%w at %s: %s failed %s (%s); is the engine running there? LIBRARIAN_URL sets its address",
			domain.ErrEngineUnreachable, e.base, c.endpoint(), times(attempts), cause(err))
	case isTimeout(err):
		return fmt.Errorf("%w: the engine at %s gave no answer to %s within %s (not retried; try again later)",
			domain.ErrEngineSlow, e.base, c.endpoint(), c.client.HTTPClient.Timeout)
	default:
		return fmt.Errorf("%w at %s: %s failed (%s)", domain.ErrEngineUnreachable, e.base, c.endpoint(), cause(err))
	}
}

func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

// cause is the innermost useful text of a transport error.
func cause(err error) string {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return "connection refused"
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "the engine closed the connection before answering"
	}
	if errors.Is(err, syscall.ECONNRESET) {
		return "connection reset by the engine"
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err.Error()
	}
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err.Error()
	}
	return err.Error()
}

// do is exchange plus the status rule: any non-2xx status is an
// *domain.EngineStatusError.
func (e *Engine) do(ctx context.Context, c call) ([]byte, error) {
	r, err := e.exchange(ctx, c)
	if err != nil {
		return nil, err
	}
	if r.status < 200 || r.status > 299 {
		return nil, statusError(c, r)
	}
	return r.body, nil
}

func statusError(c call, r reply) error {
	body := r.body
	if len(body) > keptErrorBody {
		body = body[:keptErrorBody]
	}
	return &domain.EngineStatusError{Endpoint: c.endpoint(), Status: r.status, Body: body}
}

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
func (e *Engine) Brief(ctx context.Context, q domain.BriefQuery) (domain.EngineAnswer, error) {
	c := call{client: e.post, method: http.MethodPost, path: "/api/library/brief", body: briefBody{
		Task: q.Task, Surface: Surface, Session: q.Tags.Session, Project: q.Tags.Project, Caller: q.Tags.Caller,
	}}
	return e.answer(ctx, c, "brief")
}

// Ask is POST /api/library/ask, with the discussion's history when any.
func (e *Engine) Ask(ctx context.Context, q domain.AskQuery) (domain.EngineAnswer, error) {
	var history []turnBody
	for _, t := range q.History {
		history = append(history, turnBody{Role: t.Role, Content: t.Content})
	}
	c := call{client: e.post, method: http.MethodPost, path: "/api/library/ask", body: askBody{
		Query: q.Query, Surface: Surface, Session: q.Tags.Session, Project: q.Tags.Project, Caller: q.Tags.Caller, History: history,
	}}
	return e.answer(ctx, c, "answer")
}

// answer reads a brief or ask reply: the text field, or busy, or error.
func (e *Engine) answer(ctx context.Context, c call, textField string) (domain.EngineAnswer, error) {
	o, err := e.object(ctx, c)
	if err != nil {
		return domain.EngineAnswer{}, err
	}
	if o.boolean("busy") {
		b := &domain.Busy{}
		if o.has("position") {
			b.Position, b.HasPosition = o.integer("position"), true
		}
		if o.has("eta_s") {
			b.ETA, b.HasETA = time.Duration(o.number("eta_s")*float64(time.Second)), true
		}
		return result(domain.EngineAnswer{Busy: b}, o)
	}
	a := domain.EngineAnswer{Text: o.requiredString(textField), Provider: o.str("provider")}
	return result(a, o)
}

// Locate is GET /api/library/locate; tags go in the query, without project.
func (e *Engine) Locate(ctx context.Context, q domain.LocateQuery) (domain.Locations, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	query := url.Values{"q": {q.Query}, "limit": {strconv.Itoa(limit)}, "surface": {Surface}, "session": {q.Tags.Session}}
	if q.Tags.Caller != "" {
		query.Set("caller", q.Tags.Caller)
	}
	o, err := e.object(ctx, call{client: e.get, method: http.MethodGet, path: "/api/library/locate", query: query})
	if err != nil {
		return domain.Locations{}, err
	}
	o.require("hits")
	loc := domain.Locations{Source: o.str("source"), ExcludedHits: o.integer("excluded_hits"), Footer: o.str("footer")}
	for i, item := range o.list("hits") {
		h := o.item("hits", i, item)
		if h == nil {
			break
		}
		hit := domain.Hit{
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
func (e *Engine) Depends(ctx context.Context, entryID string) (domain.Dependencies, error) {
	o, err := e.object(ctx, call{client: e.get, method: http.MethodGet, path: "/api/library/depends", query: url.Values{"eid": {entryID}}})
	if err != nil {
		return domain.Dependencies{}, err
	}
	if !o.has("dependents") && !o.has("depends_on") {
		o.setErr(fmt.Errorf("%w: the reply to %s has neither 'dependents' nor 'depends_on'", domain.ErrEngineReply, o.endpoint))
	}
	d := domain.Dependencies{Dependents: o.texts("dependents"), DependsOn: o.texts("depends_on")}
	return result(d, o)
}

// Status is GET /api/library/status: any JSON, kept verbatim; the index's
// build time is read from index.built_at (epoch seconds) when present.
func (e *Engine) Status(ctx context.Context) (domain.EngineStatus, error) {
	c := call{client: e.get, method: http.MethodGet, path: "/api/library/status"}
	body, err := e.do(ctx, c)
	if err != nil {
		return domain.EngineStatus{}, err
	}
	v, err := decode(c, body)
	if err != nil {
		return domain.EngineStatus{}, err
	}
	if err := engineError(c, v); err != nil {
		return domain.EngineStatus{}, err
	}
	st := domain.EngineStatus{JSON: bytes.TrimSpace(body)}
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
func (e *Engine) Tell(ctx context.Context, t domain.Tell) (domain.Receipt, error) {
	return e.receipt(ctx, call{client: e.post, method: http.MethodPost, path: "/api/library/tell", body: tellBody{
		Subject: t.Subject, Info: t.Info, Source: Surface, Session: t.Tags.Session, Project: t.Tags.Project, Caller: t.Tags.Caller,
	}})
}

// Gap is POST /api/library/gap.
func (e *Engine) Gap(ctx context.Context, g domain.Gap) (domain.Receipt, error) {
	return e.receipt(ctx, call{client: e.post, method: http.MethodPost, path: "/api/library/gap", body: gapBody{
		Subject: g.Subject, Missing: g.Missing, Source: Surface, Session: g.Tags.Session, Project: g.Tags.Project, Caller: g.Tags.Caller,
	}})
}

func (e *Engine) receipt(ctx context.Context, c call) (domain.Receipt, error) {
	o, err := e.object(ctx, c)
	if err != nil {
		return domain.Receipt{}, err
	}
	r := domain.Receipt{Stored: o.requiredText("stored")}
	return result(r, o)
}

// Guide is POST /api/library/guide on the guidance client (30 s, no retry).
// A 4xx is a rejection: its reason (or detail) and body come back in the
// receipt so they reach the agent verbatim.
func (e *Engine) Guide(ctx context.Context, g domain.Guidance) (domain.GuidanceReceipt, error) {
	exclude := g.Exclude
	if exclude == nil {
		exclude = []string{}
	}
	c := call{client: e.guide, method: http.MethodPost, path: "/api/library/guide", body: guideBody{
		Session: g.Tags.Session, Text: g.Text, Exclude: exclude, Expect: g.Expect, Caller: g.Tags.Caller,
	}}
	r, err := e.exchange(ctx, c)
	if err != nil {
		return domain.GuidanceReceipt{}, err
	}
	if r.status >= 400 && r.status <= 499 {
		rec := domain.GuidanceReceipt{Status: r.status, Body: bytes.TrimSpace(r.body)}
		if len(rec.Body) > keptErrorBody {
			rec.Body = rec.Body[:keptErrorBody]
		}
		if v, err := decode(c, r.body); err == nil {
			if m, ok := v.(map[string]any); ok {
				rec.Reason = reason(m)
			}
		}
		return rec, nil
	}
	if r.status < 200 || r.status > 299 {
		return domain.GuidanceReceipt{}, statusError(c, r)
	}
	o, err := parseObject(c, r.body)
	if err != nil {
		return domain.GuidanceReceipt{}, err
	}
	rec := domain.GuidanceReceipt{
		Stored:    o.boolean("stored"),
		Version:   o.text("version"),
		ExpiresAt: o.moment("expires_at"),
	}
	if !rec.Stored {
		rec.Reason = reason(o.m)
		rec.Body = bytes.TrimSpace(r.body)
	}
	return result(rec, o)
}

// reason is a rejection's `reason`, else its `detail` (FastAPI's error
// field, which may be a string or a list of problems).
func reason(m map[string]any) string {
	for _, name := range []string{"reason", "detail"} {
		switch v := m[name].(type) {
		case nil:
		case string:
			if v != "" {
				return v
			}
		default:
			return compact(v)
		}
	}
	return ""
}

// ClearGuide is DELETE /api/library/guide?session=S on the guidance client.
func (e *Engine) ClearGuide(ctx context.Context, session string) (bool, error) {
	c := call{client: e.guide, method: http.MethodDelete, path: "/api/library/guide", query: url.Values{"session": {session}}}
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
func (e *Engine) Interactions(ctx context.Context, session string, limit int) ([]domain.Interaction, error) {
	c := call{client: e.get, method: http.MethodGet, path: "/api/library/interactions",
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
	var out []domain.Interaction
	for i, raw := range rows {
		row := o.item(field, i, raw)
		if row == nil {
			break
		}
		out = append(out, domain.Interaction{
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

// result is v, or the zero value and the first problem met reading it.
func result[T any](v T, o *object) (T, error) {
	if err := o.err(); err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

// object sends c, requires a 2xx status and a JSON object without an
// `error`, and returns it for reading.
func (e *Engine) object(ctx context.Context, c call) (*object, error) {
	body, err := e.do(ctx, c)
	if err != nil {
		return nil, err
	}
	return parseObject(c, body)
}

func parseObject(c call, body []byte) (*object, error) {
	v, err := decode(c, body)
	if err != nil {
		return nil, err
	}
	if err := engineError(c, v); err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, shapeError(c, fmt.Sprintf("is %s, not a JSON object", describe(v)))
	}
	return newObject(c.endpoint(), m), nil
}

// decode parses a reply body as JSON, numbers kept exact.
func decode(c call, body []byte) (any, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, fmt.Errorf("%w: the reply to %s is empty, not JSON", domain.ErrEngineReply, c.endpoint())
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w: the reply to %s is not valid JSON (%v): %s", domain.ErrEngineReply, c.endpoint(), err, domain.OneLine(string(body), 120))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: the reply to %s has data after its JSON value: %s", domain.ErrEngineReply, c.endpoint(), domain.OneLine(string(body), 120))
	}
	return v, nil
}

// engineError is the seed's `error` field, passed through: a reply object
// whose `error` is set (not null, false or "") is the engine's own failure.
func engineError(c call, v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	switch msg := m["error"].(type) {
	case nil:
		return nil
	case string:
		if msg == "" {
			return nil
		}
		return &domain.EngineError{Endpoint: c.endpoint(), Message: msg}
	case bool:
		if !msg {
			return nil
		}
		return &domain.EngineError{Endpoint: c.endpoint(), Message: "true (no message)"}
	default:
		return &domain.EngineError{Endpoint: c.endpoint(), Message: compact(msg)}
	}
}

func shapeError(c call, what string) error {
	return fmt.Errorf("%w: the reply to %s %s", domain.ErrEngineReply, c.endpoint(), what)
}

// object reads fields of one JSON object of a reply. Null counts as absent.
// The first field of the wrong type is remembered in err, naming the
// endpoint and the field's path; later reads return zero values.
type object struct {
	endpoint string
	path     string // "" for the reply itself, "hits[2]" for an item
	m        map[string]any
	problem  *error // shared by an object and its items: the first problem wins
}

func newObject(endpoint string, m map[string]any) *object {
	return &object{endpoint: endpoint, m: m, problem: new(error)}
}

// err is the first problem met reading the reply, nil when none.
func (o *object) err() error { return *o.problem }

func (o *object) setErr(err error) {
	if *o.problem == nil {
		*o.problem = err
	}
}

func (o *object) fail(name, want string, got any) {
	o.setErr(fmt.Errorf("%w: in the reply to %s, '%s' must be %s, got %s", domain.ErrEngineReply, o.endpoint, o.field(name), want, describe(got)))
}

func (o *object) field(name string) string {
	if o.path == "" {
		return name
	}
	return o.path + "." + name
}

func (o *object) has(name string) bool { return o.m[name] != nil }

func (o *object) str(name string) string {
	switch v := o.m[name].(type) {
	case nil:
		return ""
	case string:
		return v
	default:
		o.fail(name, "a string", v)
		return ""
	}
}

// require notes a field the reply must carry (null counts as missing).
func (o *object) require(name string) {
	if !o.has(name) {
		o.setErr(fmt.Errorf("%w: the reply to %s has no '%s'", domain.ErrEngineReply, o.endpoint, o.field(name)))
	}
}

// requiredString is a string field the reply must carry.
func (o *object) requiredString(name string) string {
	if !o.has(name) {
		o.setErr(fmt.Errorf("%w: the reply to %s has no '%s' (nor busy or error)", domain.ErrEngineReply, o.endpoint, o.field(name)))
		return ""
	}
	return o.str(name)
}

// text reads an identifier that engines write as a string or a number.
func (o *object) text(name string) string {
	switch v := o.m[name].(type) {
	case nil:
		return ""
	case string:
		return v
	case json.Number:
		return v.String()
	default:
		o.fail(name, "a string or a number", v)
		return ""
	}
}

func (o *object) requiredText(name string) string {
	if !o.has(name) {
		o.setErr(fmt.Errorf("%w: the reply to %s has no '%s' (nor error)", domain.ErrEngineReply, o.endpoint, o.field(name)))
		return ""
	}
	return o.text(name)
}

func (o *object) boolean(name string) bool {
	switch v := o.m[name].(type) {
	case nil:
		return false
	case bool:
		return v
	default:
		o.fail(name, "true or false", v)
		return false
	}
}

func (o *object) number(name string) float64 {
	switch v := o.m[name].(type) {
	case nil:
		return 0
	case json.Number:
		f, err := v.Float64()
		if err != nil {
			o.fail(name, "a number", v)
		}
		return f
	default:
		o.fail(name, "a number", v)
		return 0
	}
}

func (o *object) integer(name string) int {
	v, ok := o.m[name].(json.Number)
	if !ok {
		if o.m[name] != nil {
			o.fail(name, "a whole number", o.m[name])
		}
		return 0
	}
	if i, err := v.Int64(); err == nil {
		return int(i)
	}
	f, err := v.Float64()
	if err != nil || f != float64(int64(f)) {
		o.fail(name, "a whole number", v)
		return 0
	}
	return int(f)
}

func (o *object) list(name string) []any {
	switch v := o.m[name].(type) {
	case nil:
		return nil
	case []any:
		return v
	default:
		o.fail(name, "a list", v)
		return nil
	}
}

// texts reads a list of ids: a list of strings (other items as compact
// JSON), or a single string standing for a one-item list.
func (o *object) texts(name string) []string {
	switch v := o.m[name].(type) {
	case nil:
		return nil
	case string:
		if v == "" {
			return nil
		}
		return []string{v}
	case []any:
		out := make([]string, 0, len(v))
		for _, item := range v {
			if s, ok := item.(string); ok {
				out = append(out, s)
			} else {
				out = append(out, compact(item))
			}
		}
		return out
	default:
		o.fail(name, "a list or a string", v)
		return nil
	}
}

// moment reads a time written as epoch seconds or as text (RFC 3339 is
// parsed; any other text is kept as it is).
func (o *object) moment(name string) domain.Moment {
	v := o.m[name]
	switch v := v.(type) {
	case nil:
		return domain.Moment{}
	case string:
		if t, err := time.Parse(time.RFC3339, v); err == nil {
			return domain.Moment{At: t.UTC()}
		}
		return domain.Moment{Text: v}
	case json.Number:
		if t, ok := epochSeconds(v); ok {
			return domain.Moment{At: t}
		}
	}
	o.fail(name, "epoch seconds or a time string", v)
	return domain.Moment{}
}

// item returns the i-th element of list field as an object to read, or nil
// (with err set) when it is not an object.
func (o *object) item(field string, i int, v any) *object {
	path := fmt.Sprintf("%s[%d]", field, i)
	if field == "" {
		path = fmt.Sprintf("[%d]", i)
	}
	if o.path != "" {
		path = o.path + "." + path
	}
	m, ok := v.(map[string]any)
	if !ok {
		o.setErr(fmt.Errorf("%w: in the reply to %s, '%s' must be an object, got %s", domain.ErrEngineReply, o.endpoint, path, describe(v)))
		return nil
	}
	return &object{endpoint: o.endpoint, path: path, m: m, problem: o.problem}
}

// epochSeconds reads epoch seconds (a number, or a numeric string).
func epochSeconds(v any) (time.Time, bool) {
	var f float64
	var err error
	switch v := v.(type) {
	case json.Number:
		f, err = v.Float64()
	case string:
		f, err = strconv.ParseFloat(strings.TrimSpace(v), 64)
	default:
		return time.Time{}, false
	}
	if err != nil || f <= 0 || f > 1e11 {
		return time.Time{}, false
	}
	sec := int64(f)
	return time.Unix(sec, int64((f-float64(sec))*1e9)).UTC(), true
}

// describe names a JSON value's type for messages: "a string (\"x\")".
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("a string (%q)", domain.OneLine(v, 40))
	case json.Number:
		return "a number (" + v.String() + ")"
	case bool:
		return fmt.Sprintf("a boolean (%t)", v)
	case []any:
		return fmt.Sprintf("a list of %d", len(v))
	case map[string]any:
		return "an object"
	default:
		return fmt.Sprintf("%T", v)
	}
}

// compact is v as one line of JSON.
func compact(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}
