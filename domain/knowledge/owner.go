package knowledge

import "context"

// An owner is the name of the token a request was authenticated with (a
// line of LIBRARIAN_TOKEN_FILE, or "LIBRARIAN_TOKEN"): the author of what
// the journal records for it and the holder of the sessions it opened. It
// is "" over stdio and on a server that takes no token. Unlike a call's
// `caller`, which anyone may claim, an owner is proven: the driving
// adapters set it from the authenticated request, never from arguments.

type ownerKey struct{}

// WithOwner returns ctx carrying owner, the authenticated token's name.
func WithOwner(ctx context.Context, owner string) context.Context {
	return context.WithValue(ctx, ownerKey{}, owner)
}

// OwnerOf is the owner ctx carries; "" when none was set.
func OwnerOf(ctx context.Context) string {
	owner, _ := ctx.Value(ownerKey{}).(string)
	return owner
}
