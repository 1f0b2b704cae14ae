// Package actions says what each action of the use_user_browser tool means,
// composed from the extension's primitives: which tab or window it targets,
// what it waits for, and what it returns. The daemon runs it; the MCP server
// and the CLI only pass inputs in and results out.
package actions

import (
	"fmt"
	"net/url"
	"reflect"

	"github.com/browser-bridge/browser-bridge/internal/pathcheck"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// handler runs one action; its result is a pointer to the action's
// result type (tool.Spec.Result).
type handler func(r *run) (any, error)

// handlers is the route table of actions; each action's file registers
// itself in init, so adding an action touches no shared file.
var handlers = map[string]handler{}

// register adds the handler of an action the contract declares; a handler
// for an undeclared action, two for one, or one that returns another type
// than the spec's result is a programming error.
func register[R any](name string, h func(r *run) (*R, error)) {
	spec, ok := tool.Lookup(name)
	if !ok {
		panic("action has a handler but no spec in internal/tool: " + name)
	}
	if _, dup := handlers[name]; dup {
		panic("action registered twice: " + name)
	}
	if got, want := reflect.TypeFor[R](), reflect.TypeOf(spec.Result); got != want {
		panic(fmt.Sprintf("action %s returns %v, but its spec's result is %v", name, got, want))
	}
	handlers[name] = func(r *run) (any, error) {
		res, err := h(r)
		if err != nil {
			return nil, err
		}
		return res, nil
	}
}

// Missing lists the actions the contract declares that have no handler
// (a test keeps it empty).
func Missing() []string {
	var out []string
	for _, n := range tool.Names() {
		if _, ok := handlers[n]; !ok {
			out = append(out, n)
		}
	}
	return out
}

func invalid(format string, args ...any) error {
	return protocol.Errorf(protocol.CodeInvalidArgument, format, args...)
}

// CheckURL accepts http:, https:, file: and about:blank. A
// file: URL is checked by the path Chrome reads for it (Chrome parses
// file:root/x, file:/x and backslashes unlike net/url), against the rules
// of upload.
func CheckURL(s string) error {
	if s == "" {
		return invalid("url is required")
	}
	if s == "about:blank" {
		return nil
	}
	if pathcheck.IsFileURL(s) {
		p, err := pathcheck.FileURLPath(s)
		if err != nil {
			return invalid("url %q is refused: %v", s, err)
		}
		if why := pathcheck.Refused(p); why != "" {
			return invalid("url %q is refused: %s (the same rules as for uploads)", s, why)
		}
		return nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return invalid("url %q does not parse: %v", s, err)
	}
	switch u.Scheme {
	case "http", "https":
		if u.Host == "" {
			return invalid("url %q has no host", s)
		}
		return nil
	}
	return invalid("url %q is not allowed: use an http, https or file URL, or about:blank", s)
}
