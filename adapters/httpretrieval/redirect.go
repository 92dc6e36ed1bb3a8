package httpretrieval

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/librarian/librarian/domain/knowledge"
)

// maxRedirects bounds the redirects followed within the engine's origin.
const maxRedirects = 5

// followWithinOrigin is the client's redirect rule. A call carries the
// session id, the project tag and the query: it may move only within the
// engine's origin (same scheme, host and port as the request that was
// redirected), keeping its method, so a 301/302/303 never turns a POST into
// a GET. Any other redirect is not followed and comes back as a 3xx reply,
// which statusError reports as a redirectError.
func followWithinOrigin(req *http.Request, via []*http.Request) error {
	first := via[0]
	if len(via) > maxRedirects || req.Method != first.Method || !sameOrigin(req.URL, first.URL) {
		return http.ErrUseLastResponse
	}
	return nil
}

// sameOrigin compares scheme, host and port, the port defaulted by scheme.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

func isRedirect(status int) bool { return status >= 300 && status <= 399 }

// redirectError is a redirect the client did not follow: "engine answered
// 307 (redirect to …), not followed". It is a *knowledge.EngineStatusError
// (errors.As finds it), so it maps like any other status.
type redirectError struct {
	*knowledge.EngineStatusError
	location string // as the engine sent it, "" when it sent none
}

func (e *redirectError) Error() string {
	to := "no Location"
	if e.location != "" {
		to = "redirect to " + excerpt(e.location, 200)
	}
	return fmt.Sprintf("engine answered %d (%s), not followed: %s; only redirects within the engine's origin that keep the method are followed (set LIBRARIAN_URL to the address the engine answers at)",
		e.Status, to, e.Endpoint)
}

func (e *redirectError) Unwrap() error { return e.EngineStatusError }
