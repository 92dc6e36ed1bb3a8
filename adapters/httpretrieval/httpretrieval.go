// Package httpretrieval is the retrieval port's `remote` adapter: a client
// of seed 004's engine over HTTP+JSON, on github.com/hashicorp/go-retryablehttp.
// It implements the seed's contract table exactly (methods, paths, which
// tags go in the body and which in the query, request fields, the reply
// fields it reads) and its failure rules:
//
//   - a refused or dropped connection is retried after 2, 4 and 8 s, then
//     reported as the engine being unreachable at its URL;
//   - a read timeout (30 s for GET, 180 s for POST) is a slow engine, not
//     retried; it is one deadline per call, so attempts, dropped connections
//     and the waits between them all count toward it and never multiply it;
//   - an HTTP error status is "engine answered N", not retried;
//   - a redirect is followed only within the engine's origin and when it
//     keeps the method; any other is "engine answered 307 (redirect to …),
//     not followed", so no request, session id or query leaves the origin;
//   - guidance (POST and DELETE /api/library/guide) has its own 30 s
//     deadline and no retry, and a 4xx rejection keeps the engine's body.
//
// Remote text quoted in errors (the engine's `error`, a rejection's reason,
// a reply body) is cut to a short prefix. Every wait and timeout is an
// Option, so tests run in milliseconds. The adapter holds no state besides
// its HTTP client: it is safe for concurrent use.
package httpretrieval

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

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
	// Deadlines per call: every attempt, the reply body and the waits
	// between attempts included; 0 means the default.
	GetTimeout, PostTimeout, GuideTimeout time.Duration
	// DialTimeout bounds connecting (0: 5 s); it is kept under half the
	// shortest deadline so a slow dial is never mistaken for a slow engine.
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
	base     string       // without a trailing '/'
	client   *http.Client // no Timeout: each call sets its own deadline
	get      policy
	post     policy
	guide    policy
	maxReply int64
	log      *slog.Logger
}

// policy is the failure rule of one kind of call: its deadline and the
// waits before each retry of a connection failure (none: never retried).
type policy struct {
	deadline time.Duration
	waits    []time.Duration
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
	e := &Engine{
		base:     strings.TrimRight(u.String(), "/"),
		client:   &http.Client{Transport: transport, CheckRedirect: followWithinOrigin},
		get:      policy{deadline: getTimeout, waits: waits},
		post:     policy{deadline: postTimeout, waits: waits},
		guide:    policy{deadline: guideTimeout},
		maxReply: maxReply,
		log:      opts.Logger,
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
