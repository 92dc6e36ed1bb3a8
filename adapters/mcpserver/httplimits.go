package mcpserver

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
	"os"
	"strconv"
	"sync"
	"time"
)

// What bounds the memory and the share of each HTTP client:
//   - connections: at most MaxConnections open at once (limitListener);
//   - a request body must arrive within BodyTimeout of its headers, and is
//     at most MaxBodyBytes (bufferBody);
//   - every write of an answer, or of an event on a stream, must be taken
//     by the client within WriteTimeout, or the connection is cut and what
//     it held is freed (deadlines);
//   - calls (tool calls, resource reads, prompt gets, engine API requests)
//     run at most MaxCalls at once, MaxCallsPerToken for one token, and
//     keep their slot until their answer is written, so the answers held in
//     memory are bounded by the slots (callLimiter).

// limitListener accepts at most max connections at once; Accept waits for
// one to close before it takes another, which waits in the kernel's
// backlog meanwhile (as golang.org/x/net/netutil's LimitListener does, a
// module this project does not take for a dozen lines).
type limitListener struct {
	net.Listener
	slots     chan struct{}
	closed    chan struct{}
	closeOnce sync.Once
	logger    *slog.Logger

	mu       sync.Mutex
	lastWarn time.Time
}

func newLimitListener(ln net.Listener, max int, logger *slog.Logger) *limitListener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, max), closed: make(chan struct{}), logger: logger}
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	default:
		l.warnFull()
		select {
		case l.slots <- struct{}{}:
		case <-l.closed:
			return nil, net.ErrClosed
		}
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitedConn{Conn: c, release: func() { <-l.slots }}, nil
}

// warnFull logs, at most once a minute, that new connections wait.
func (l *limitListener) warnFull() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if time.Since(l.lastWarn) < time.Minute {
		return
	}
	l.lastWarn = time.Now()
	l.logger.Warn("the connection cap is reached: new connections wait until one closes", "max_connections", cap(l.slots))
}

func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// limitedConn gives its slot back when it closes, once.
type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// deadlines bounds each request's I/O on its connection: the body must
// arrive within bodyTimeout of the headers (net/http lifts this read
// deadline itself once the body is read to its end), and each write of the
// answer (each event, on a stream) must be taken within writeTimeout. A
// write deadline is set before every write, not once per request, so a
// long-lived event stream (GET /mcp) lives on while its client reads it,
// and a long call is not cut for the time it takes to compute. A write that
// fails cancels the request's context, which ends the go-sdk's wait on the
// stream, so the handler returns and the connection, with what it held, is
// freed.
func deadlines(bodyTimeout, writeTimeout time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if r.Body != nil && r.Body != http.NoBody {
			// Only a request with a body: on one without, net/http is
			// already reading the connection in the background to see the
			// client leave, and a deadline would end that read and the
			// request with it.
			rc.SetReadDeadline(time.Now().Add(bodyTimeout))
		}
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		dw := &deadlineWriter{ResponseWriter: w, rc: rc, timeout: writeTimeout, cut: cancel}
		dw.extend()
		next.ServeHTTP(dw, r.WithContext(ctx))
		dw.extend() // net/http writes the end of the answer after the handler returns
	})
}

// deadlineWriter sets the connection's write deadline before each write.
type deadlineWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	cut     context.CancelFunc
}

func (d *deadlineWriter) extend() { d.rc.SetWriteDeadline(time.Now().Add(d.timeout)) }

func (d *deadlineWriter) WriteHeader(code int) {
	d.extend()
	d.ResponseWriter.WriteHeader(code)
}

func (d *deadlineWriter) Write(b []byte) (int, error) {
	d.extend()
	n, err := d.ResponseWriter.Write(b)
	if err != nil {
		d.cut()
	}
	return n, err
}

// FlushError is what http.ResponseController.Flush calls (the go-sdk
// flushes after each event).
func (d *deadlineWriter) FlushError() error {
	d.extend()
	err := d.rc.Flush()
	if err != nil {
		d.cut()
	}
	return err
}

func (d *deadlineWriter) Flush() { d.FlushError() }

func (d *deadlineWriter) Unwrap() http.ResponseWriter { return d.ResponseWriter }

// bufferBody reads a request's body whole before the handler runs, at most
// maxBytes of it, within the read deadline deadlines set: the handlers (the
// go-sdk's, the engine API's) then read memory, and a body that trickles in
// or runs long is answered here, in our words (408, 413), not in a
// decoder's.
func bufferBody(maxBytes int64, bodyTimeout time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBytes))
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			http.Error(w, fmt.Sprintf("request body exceeds %d bytes", tooBig.Limit), http.StatusRequestEntityTooLarge)
			return
		case errors.Is(err, os.ErrDeadlineExceeded):
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf("request timeout: the body did not arrive within %s of the headers (LIBRARIAN_HTTP_BODY_TIMEOUT)", bodyTimeout), http.StatusRequestTimeout)
			return
		case err != nil:
			w.Header().Set("Connection", "close")
			http.Error(w, "bad request: the body could not be read whole", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		next.ServeHTTP(w, r)
	})
}

// callLimiter caps the calls running at once: all callers together
// (max), and each token (perToken), so that one token cannot take every
// slot. A call waits up to wait for a slot, then is refused with the limit
// that held it and when to retry.
type callLimiter struct {
	max, perToken int
	wait          time.Duration

	mu      sync.Mutex
	used    int
	byToken map[string]int
	freed   chan struct{} // closed, and replaced, when a slot is given back
}

func newCallLimiter(max, perToken int, wait time.Duration) *callLimiter {
	return &callLimiter{max: max, perToken: min(perToken, max), wait: wait, byToken: map[string]int{}, freed: make(chan struct{})}
}

// busy is a refusal: which limit held the call, in words for the caller.
type busy struct {
	limit      string
	retryAfter time.Duration
}

func (b *busy) Error() string {
	return fmt.Sprintf("server busy: %s; this call did nothing: send it again in %s", b.limit, retryWords(b.retryAfter))
}

// retryAfterHeader is the Retry-After value, in whole seconds (at least 1).
func (b *busy) retryAfterHeader() string {
	return strconv.Itoa(max(1, int((b.retryAfter+time.Second-1)/time.Second)))
}

func retryWords(d time.Duration) string {
	if s := int((d + time.Second - 1) / time.Second); s > 1 {
		return fmt.Sprintf("%d s", s)
	}
	return "1 s"
}

// acquire takes a slot for token, waiting up to l.wait; release gives it
// back. It returns a *busy when no slot freed in time, or ctx's error.
func (l *callLimiter) acquire(ctx context.Context, token string) (release func(), err error) {
	var timer *time.Timer
	for {
		l.mu.Lock()
		full := l.used >= l.max
		tokenFull := l.byToken[token] >= l.perToken
		if !full && !tokenFull {
			l.used++
			l.byToken[token]++
			l.mu.Unlock()
			if timer != nil {
				timer.Stop()
			}
			var once sync.Once
			return func() { once.Do(func() { l.release(token) }) }, nil
		}
		freed := l.freed
		l.mu.Unlock()
		if timer == nil {
			timer = time.NewTimer(l.wait)
		}
		select {
		case <-freed:
		case <-timer.C:
			if tokenFull {
				return nil, &busy{limit: fmt.Sprintf("%s already runs %d calls, the most one token may (LIBRARIAN_HTTP_MAX_CALLS_PER_TOKEN), and none ended within %s", tokenWords(token), l.perToken, l.wait), retryAfter: l.wait}
			}
			return nil, &busy{limit: fmt.Sprintf("all %d call slots (LIBRARIAN_HTTP_MAX_CALLS) stayed taken for %s", l.max, l.wait), retryAfter: l.wait}
		case <-ctx.Done():
			timer.Stop()
			return nil, ctx.Err()
		}
	}
}

func (l *callLimiter) release(token string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.used--
	if l.byToken[token]--; l.byToken[token] == 0 {
		delete(l.byToken, token)
	}
	close(l.freed)
	l.freed = make(chan struct{})
}

// tokenWords names a token's caller in a refusal.
func tokenWords(name string) string {
	if name == "" {
		return "this server's one caller (no token is required)"
	}
	return fmt.Sprintf("token %q", name)
}

// limitCalls puts every request to next (a mounted handler: the engine
// API) behind the call cap; past it, 503 with Retry-After and a FastAPI
// style {"detail": …}, as the engine API answers its other refusals.
func limitCalls(calls *callLimiter, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		release, err := calls.acquire(r.Context(), callerName(r))
		var b *busy
		switch {
		case errors.As(err, &b):
			w.Header().Set("Retry-After", b.retryAfterHeader())
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			json.NewEncoder(w).Encode(map[string]string{"detail": b.Error()})
			return
		case err != nil:
			return // the client left
		}
		defer release()
		next.ServeHTTP(w, r)
	})
}
