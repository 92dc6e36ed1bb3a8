package httpretrieval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"syscall"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/librarian/librarian/domain"
	"github.com/librarian/librarian/domain/knowledge"
)

// attempts sends one call under its policy: connection failures are retried
// after each of the policy's waits, but only while the wait and a new
// attempt fit in what is left of the call's deadline; the number of
// attempts made and whether the deadline cut the retries short are
// reported in an *attemptsError.
func (e *Engine) attempts(req *retryablehttp.Request, p policy, deadline time.Time) (*http.Response, error) {
	attempt, cutShort := 0, false
	client := &retryablehttp.Client{
		HTTPClient: e.client,
		Logger:     nil, // untyped nil: the library logs nothing; retries are logged below
		RetryMax:   len(p.waits),
		RequestLogHook: func(_ retryablehttp.Logger, _ *http.Request, i int) {
			attempt = i + 1
		},
		CheckRetry: func(ctx context.Context, resp *http.Response, err error) (bool, error) {
			retry, checkErr := retryConnectionFailures(ctx, resp, err)
			if !retry || attempt > len(p.waits) {
				return retry, checkErr
			}
			if time.Until(deadline) <= p.waits[attempt-1] {
				cutShort = true
				return false, nil
			}
			return true, nil
		},
		Backoff: func(_, _ time.Duration, i int, _ *http.Response) time.Duration {
			wait := p.waits[min(i, len(p.waits)-1)] // never called when there are no waits
			if e.log != nil {
				e.log.Warn("engine connection failed, retrying", "attempt", i+1, "wait", wait)
			}
			return wait
		},
		ErrorHandler: func(resp *http.Response, err error, attempts int) (*http.Response, error) {
			if resp != nil {
				resp.Body.Close()
			}
			return nil, &attemptsError{attempts: attempts, cutShort: cutShort, err: err}
		},
	}
	return client.Do(req)
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

// attemptsError carries how many attempts a failed request made, and
// whether the call's deadline left no time for another.
type attemptsError struct {
	attempts int
	cutShort bool
	err      error
}

func (e *attemptsError) Error() string { return e.err.Error() }
func (e *attemptsError) Unwrap() error { return e.err }

// errReplyTooLarge marks a reply cut at MaxReplyBytes.
var errReplyTooLarge = errors.New("reply too large")

// call is one request of the contract.
type call struct {
	policy policy
	method string
	path   string
	query  url.Values
	body   any // marshalled to JSON; nil for none
}

func (c call) endpoint() string { return c.method + " " + c.path }

// reply is what came back: any status, the body read in full, and for a
// redirect that was not followed, where it pointed.
type reply struct {
	status   int
	body     []byte
	location string
}

// exchange sends c and reads the whole reply, applying the failure rules.
// A reply with any HTTP status is returned; transport failures are
// classified into the domain's engine errors.
//
// The whole call, every attempt, reply body and wait between attempts
// included, runs under one deadline (the policy's): an engine that answers
// a byte a second and then drops is not given the deadline again per retry.
func (e *Engine) exchange(ctx context.Context, c call) (reply, error) {
	callCtx, cancel := context.WithTimeout(ctx, c.policy.deadline)
	defer cancel()
	deadline, _ := callCtx.Deadline()
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
	req, err := retryablehttp.NewRequestWithContext(callCtx, c.method, target, body)
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
	// body that stalls is caught by the same deadline as the headers.
	req.SetResponseHandler(func(resp *http.Response) error {
		data, err := io.ReadAll(io.LimitReader(resp.Body, e.maxReply+1))
		if err != nil {
			return err
		}
		if int64(len(data)) > e.maxReply {
			return errReplyTooLarge
		}
		got = reply{status: resp.StatusCode, body: data}
		if isRedirect(resp.StatusCode) {
			got.location = resp.Header.Get("Location")
		}
		return nil
	})
	resp, err := e.attempts(req, c.policy, deadline)
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
	attempts, cutShort := 1, false
	var ae *attemptsError
	if errors.As(err, &ae) {
		attempts, cutShort = ae.attempts, ae.cutShort
	}
	switch {
	case errors.Is(err, errReplyTooLarge):
		return fmt.Errorf("%w: the reply to %s from %s is larger than %d bytes", knowledge.ErrEngineReply, c.endpoint(), e.base, e.maxReply)
	case isConnectionFailure(err):
		short := ""
		if cutShort {
			short = fmt.Sprintf("; no time was left for another attempt within the call's %s deadline", c.policy.deadline)
		}
		return fmt.Errorf("%w at %s: %s failed %s (%s)%s; is the engine running there? LIBRARIAN_URL sets its address",
			knowledge.ErrEngineUnreachable, e.base, c.endpoint(), times(attempts), cause(err), short)
	case isTimeout(err) && attempts > 1:
		return fmt.Errorf("%w: the engine at %s gave no answer to %s within the call's %s deadline (%d attempts; try again later)",
			knowledge.ErrEngineSlow, e.base, c.endpoint(), c.policy.deadline, attempts)
	case isTimeout(err):
		return fmt.Errorf("%w: the engine at %s gave no answer to %s within %s (not retried; try again later)",
			knowledge.ErrEngineSlow, e.base, c.endpoint(), c.policy.deadline)
	default:
		return fmt.Errorf("%w at %s: %s failed (%s)", knowledge.ErrEngineUnreachable, e.base, c.endpoint(), cause(err))
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
// *knowledge.EngineStatusError.
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
	se := &knowledge.EngineStatusError{Endpoint: c.endpoint(), Status: r.status, Body: body}
	if isRedirect(r.status) {
		return &redirectError{EngineStatusError: se, location: r.location}
	}
	return se
}
