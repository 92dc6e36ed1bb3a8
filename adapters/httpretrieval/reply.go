package httpretrieval

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/librarian/librarian/domain/knowledge"
	"github.com/librarian/librarian/domain/wording"
)

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
		return nil, fmt.Errorf("%w: the reply to %s is empty, not JSON", knowledge.ErrEngineReply, c.endpoint())
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w: the reply to %s is not valid JSON (%v): %s", knowledge.ErrEngineReply, c.endpoint(), err, wording.OneLine(string(body), 120))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: the reply to %s has data after its JSON value: %s", knowledge.ErrEngineReply, c.endpoint(), wording.OneLine(string(body), 120))
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
		return &knowledge.EngineError{Endpoint: c.endpoint(), Message: excerpt(msg, quotedRunes)}
	case bool:
		if !msg {
			return nil
		}
		return &knowledge.EngineError{Endpoint: c.endpoint(), Message: "true (no message)"}
	default:
		return &knowledge.EngineError{Endpoint: c.endpoint(), Message: excerpt(compact(msg), quotedRunes)}
	}
}

func shapeError(c call, what string) error {
	return fmt.Errorf("%w: the reply to %s %s", knowledge.ErrEngineReply, c.endpoint(), what)
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
	o.setErr(fmt.Errorf("%w: in the reply to %s, '%s' must be %s, got %s", knowledge.ErrEngineReply, o.endpoint, o.field(name), want, describe(got)))
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
		o.setErr(fmt.Errorf("%w: the reply to %s has no '%s'", knowledge.ErrEngineReply, o.endpoint, o.field(name)))
	}
}

// requiredString is a string field the reply must carry.
func (o *object) requiredString(name string) string {
	if !o.has(name) {
		o.setErr(fmt.Errorf("%w: the reply to %s has no '%s' (nor busy or error)", knowledge.ErrEngineReply, o.endpoint, o.field(name)))
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
		o.setErr(fmt.Errorf("%w: the reply to %s has no '%s' (nor error)", knowledge.ErrEngineReply, o.endpoint, o.field(name)))
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
func (o *object) moment(name string) knowledge.Moment {
	v := o.m[name]
	switch v := v.(type) {
	case nil:
		return knowledge.Moment{}
	case string:
		if t, err := time.Parse(time.RFC3339, v); err == nil {
			return knowledge.Moment{At: t.UTC()}
		}
		return knowledge.Moment{Text: v}
	case json.Number:
		if t, ok := epochSeconds(v); ok {
			return knowledge.Moment{At: t}
		}
	}
	o.fail(name, "epoch seconds or a time string", v)
	return knowledge.Moment{}
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
		o.setErr(fmt.Errorf("%w: in the reply to %s, '%s' must be an object, got %s", knowledge.ErrEngineReply, o.endpoint, path, describe(v)))
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
		return fmt.Sprintf("a string (%q)", wording.OneLine(v, 40))
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

// quotedRunes is how much of a remote text (the engine's `error`, a
// rejection's reason) an error quotes.
const quotedRunes = 500

// excerpt is remote text as errors quote it: on one line, at most limit
// runes, and when cut, marked with how long it was. Only a prefix of s is
// ever scanned, so a 5 MB engine message costs no more than a short one.
func excerpt(s string, limit int) string {
	head := s
	if len(head) > 4*limit+4 {
		head = strings.ToValidUTF8(head[:4*limit+4], "")
	}
	line := wording.OneLine(head, 0)
	if utf8.RuneCountInString(line) <= limit && len(head) == len(s) {
		return line
	}
	if r := []rune(line); len(r) > limit {
		line = string(r[:limit])
	}
	return line + fmt.Sprintf("… (%d bytes in all)", len(s))
}
