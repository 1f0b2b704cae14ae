package browser

import "context"

// Caller sends one verb to the extension and decodes its result into out.
// *Link is one; so is anything that stands in for it (actions.Browser).
type Caller interface {
	Call(ctx context.Context, verb string, params, out any) error
}

// Verbs gives each extension verb a typed method over a Caller: the params
// and result types are protocol's (verbs.go), one pair per verb, so that a
// changed parameter is a compile error here rather than a surprise in the
// extension. The methods are generated from protocol.Verbs (verbs_gen.go,
// go generate ./internal/protocol). command.cancel has none: the Link
// sends it itself.
type Verbs struct{ Caller }

// call sends verb with p and decodes its result as an R.
func call[R any](ctx context.Context, c Caller, verb string, p any) (R, error) {
	var r R
	err := c.Call(ctx, verb, p, &r)
	return r, err
}
