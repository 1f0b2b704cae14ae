package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// Client is one connection to the bridge's daemon. Its methods may be
// called from several goroutines at once; each call is bounded by its
// action's deadline (60 s, status 5 s, shortened by Target.TimeoutMs) and
// by ctx, whose cancellation also stops the call in the daemon.
type Client struct {
	c *client.Client
	// verbsIn is WithVerbsIn's browser ("": the connection's default).
	verbsIn string
}

// Option changes how Dial connects.
type Option func(*options)

type options struct {
	session            string
	home               string
	socket, secretFile string
	verbsIn            string
}

// WithSession names the program's session: its default workspace (its own
// window and tab group, labelled with the name) and its lines in the audit
// log. The default is "program:" and the base name of os.Args[0].
func WithSession(name string) Option { return func(o *options) { o.session = name } }

// WithVerbsIn sends the client's Hive-compatible verbs (ContextCreate,
// TabCreate, CDP and the rest of verbs.go) and its WebSocket settings to
// one browser: a label or slot number from Status's Browsers. Without it
// the Hive verbs go to the browser that was the default (the one the
// user focused last) at the client's first verb, and stay there while
// the client is connected: a program's tab and group IDs are one
// browser's. The actions are not affected: they pick their browser by
// Target.
func WithVerbsIn(browser string) Option { return func(o *options) { o.verbsIn = browser } }

// WithHome uses the install whose state is in dir, as BROWSER_BRIDGE_HOME
// does for the command line; a daemon Dial starts for it gets the same.
func WithHome(dir string) Option { return func(o *options) { o.home = dir } }

// WithSocket connects to the daemon listening on socket — typically a
// socket forwarded from another machine with ssh -L (see the package
// documentation) — presenting the install secret in secretFile. Dial then
// never starts a daemon. The socket's folder must be private to this user
// (mode 0700).
func WithSocket(socket, secretFile string) Option {
	return func(o *options) { o.socket, o.secretFile = socket, secretFile }
}

// Dial connects to the daemon. Without options it finds the daemon as the
// command line does: BROWSER_BRIDGE_SOCKET and BROWSER_BRIDGE_SECRET_FILE
// when set (a forwarded socket), else the install of BROWSER_BRIDGE_HOME or
// of the per-user folders; when that daemon is not running, Dial starts it
// with the browser-bridge binary on PATH (or the one the native host
// manifests name). It never stops or replaces a running daemon, whatever
// its version.
func Dial(ctx context.Context, opts ...Option) (*Client, error) {
	o := options{session: "program:" + filepath.Base(os.Args[0])}
	for _, f := range opts {
		f(&o)
	}
	if o.socket != "" || o.secretFile != "" {
		if o.socket == "" || o.secretFile == "" {
			return nil, errors.New("bridge: WithSocket needs both the socket and the secret file")
		}
		return dialSocket(ctx, o.socket, o.secretFile, o)
	}
	if o.home == "" {
		socket, secretFile, ok, err := client.Forwarded()
		if err != nil {
			return nil, fmt.Errorf("bridge: %w", err)
		}
		if ok {
			return dialSocket(ctx, socket, secretFile, o)
		}
	}
	var layout paths.Layout
	var env []string
	if o.home != "" {
		home, err := filepath.Abs(o.home)
		if err != nil {
			return nil, fmt.Errorf("bridge: resolving the state folder %q: %w", o.home, err)
		}
		layout, env = paths.ForHome(home), []string{paths.EnvHome + "=" + home}
	} else {
		l, err := paths.Default()
		if err != nil {
			return nil, fmt.Errorf("bridge: %w", err)
		}
		layout = l
	}
	if c, err := client.ConnectSocket(ctx, layout.Socket, layout.Secret(), o.session); err == nil {
		return &Client{c: c, verbsIn: o.verbsIn}, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	bin, err := binary()
	if err != nil {
		return nil, err
	}
	if err := client.EnsureDaemonWith(ctx, layout, bin, env); err != nil {
		return nil, fmt.Errorf("bridge: starting the daemon with %s: %w", bin, err)
	}
	return dialSocket(ctx, layout.Socket, layout.Secret(), o)
}

func dialSocket(ctx context.Context, socket, secretFile string, o options) (*Client, error) {
	c, err := client.ConnectSocket(ctx, socket, secretFile, o.session)
	if err != nil {
		return nil, fmt.Errorf("bridge: %w", err)
	}
	return &Client{c: c, verbsIn: o.verbsIn}, nil
}

// binary finds the browser-bridge binary that starts a daemon: the one on
// PATH, else the one the native host manifests of the browsers name (what
// `browser-bridge install` registered).
func binary() (string, error) {
	if p, err := exec.LookPath("browser-bridge"); err == nil {
		return p, nil
	}
	for _, b := range paths.Browsers() {
		raw, err := os.ReadFile(filepath.Join(b.ManifestDir, protocol.NativeHostName+".json"))
		if err != nil {
			continue
		}
		var m struct {
			Path string `json:"path"`
		}
		if json.Unmarshal(raw, &m) != nil || !filepath.IsAbs(m.Path) {
			continue
		}
		// paths.Perm, not the mode: on Windows the mode has no execute
		// bits, and a program is known by its extension.
		if fi, err := os.Stat(m.Path); err == nil && fi.Mode().IsRegular() && paths.Perm(m.Path, fi)&0o111 != 0 {
			return m.Path, nil
		}
	}
	return "", errors.New("bridge: no daemon is running and no browser-bridge binary was found to start one (not on PATH, not in a native host manifest): install browser-bridge (`browser-bridge install`) or put it on PATH")
}

// Close ends the connection; calls in flight fail.
func (c *Client) Close() error { return c.c.Close() }

// Do runs any action of the use_user_browser tool: params (a struct or a
// map) marshal to its parameters, with action added; the result is the
// action's JSON result. The typed methods are Do with their own params and
// result types; Do is for what they do not cover.
func (c *Client) Do(ctx context.Context, action string, params any) (json.RawMessage, error) {
	input, err := toolInput(action, params)
	if err != nil {
		return nil, err
	}
	raw, err := c.c.Call(ctx, input, deadline(action, input), nil)
	if err != nil {
		return nil, fromInternal(err)
	}
	return raw, nil
}

// do runs action with params and decodes its result into a new R.
func do[R any](ctx context.Context, c *Client, action string, params any) (*R, error) {
	raw, err := c.Do(ctx, action, params)
	if err != nil {
		return nil, err
	}
	out := new(R)
	if err := json.Unmarshal(raw, out); err != nil {
		return nil, fmt.Errorf("bridge: decoding the result of %s: %w", action, err)
	}
	return out, nil
}

// toolInput is params as a JSON object with the action added. The daemon
// checks the parameters; this only makes the object.
func toolInput(action string, params any) (map[string]json.RawMessage, error) {
	input := map[string]json.RawMessage{}
	if params != nil {
		raw, err := json.Marshal(params)
		if err != nil {
			return nil, fmt.Errorf("bridge: encoding the params of %s: %w", action, err)
		}
		if string(raw) != "null" {
			if err := json.Unmarshal(raw, &input); err != nil {
				return nil, &Error{Code: ErrInvalidArgument, Message: fmt.Sprintf("the params of %s must encode as a JSON object, not %s", action, raw)}
			}
		}
	}
	if _, ok := input["action"]; ok {
		return nil, &Error{Code: ErrInvalidArgument, Message: fmt.Sprintf("the params of %s may not set action; the method names it", action)}
	}
	input["action"], _ = json.Marshal(action)
	return input, nil
}

// deadline is how long the daemon may take: the action's deadline,
// shortened by the input's timeoutMs (the client adds its slack).
func deadline(action string, input map[string]json.RawMessage) time.Duration {
	ms, _ := strconv.Atoi(string(input["timeoutMs"]))
	if s, ok := tool.Lookup(action); ok {
		return s.DeadlineFor(ms)
	}
	return (&tool.Spec{}).DeadlineFor(ms)
}

// verb runs a program verb and decodes its result into out (nil: drop it).
func (c *Client) verb(ctx context.Context, verb string, params, out any) error {
	raw, err := c.c.VerbIn(ctx, c.verbsIn, verb, params, nil)
	if err != nil {
		return fromInternal(err)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("bridge: decoding the result of %s: %w", verb, err)
	}
	return nil
}
