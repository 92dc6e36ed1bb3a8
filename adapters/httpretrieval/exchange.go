package httpretrieval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"syscall"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/librarian/librarian/domain"
)

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
