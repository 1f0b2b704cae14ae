package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/audit"
	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// EnvWorkspace names the CLI's session (and so its default workspace).
const EnvWorkspace = "BROWSER_BRIDGE_WORKSPACE"

// runCall runs `call '<json>'`.
func runCall(ctx context.Context, args []string) error {
	if len(args) != 1 {
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, `call takes one JSON object, e.g. browser-bridge call '{"action":"status"}', or - to read it from stdin`), 2)
	}
	raw := []byte(args[0])
	if args[0] == "-" {
		// Inputs over the OS limit for one argument (128 KiB on Linux) come
		// on stdin.
		b, err := io.ReadAll(io.LimitReader(os.Stdin, 64<<20))
		if err != nil {
			return printError(protocol.Errorf(protocol.CodeInvalidArgument, "reading the input from stdin: %v", err), 2)
		}
		raw = b
	}
	return callAndPrint(ctx, raw)
}

// actionCommand runs an action from flags named as its JSON parameters.
func actionCommand(action string) func(context.Context, []string) error {
	return func(ctx context.Context, args []string) error {
		input, err := parseFlags(action, args)
		if errors.Is(err, errHelped) {
			actionHelp(Stdout, action)
			return err
		}
		if err != nil {
			return printError(protocol.AsError(err), 2)
		}
		raw, _ := json.Marshal(input)
		return callAndPrint(ctx, raw)
	}
}

func callAndPrint(ctx context.Context, raw json.RawMessage) error {
	// Parse here too: bad input gets its coded error without a daemon.
	in, _, err := tool.Parse(raw)
	if err != nil {
		return printError(protocol.AsError(err), 2)
	}
	if raw, err = absolutePaths(in, raw); err != nil {
		return printError(protocol.AsError(err), 2)
	}
	return viaDaemon(ctx, in.Deadline(), func(c *client.Client, progress func(string)) (json.RawMessage, error) {
		res, err := c.Call(ctx, raw, in.Deadline(), progress)
		if err == nil && in.Action == "status" {
			sayNotConnected(res)
		}
		return res, err
	})
}

// sayNotConnected puts the one thing a user must do on stderr when status
// finds no browser: the JSON on stdout has it too, under a screenful of
// diagnostics.
func sayNotConnected(res json.RawMessage) {
	var st struct {
		Connected   bool
		Reason      string
		Diagnostics struct{ Hint string }
	}
	if json.Unmarshal(res, &st) != nil || st.Connected {
		return
	}
	what := st.Diagnostics.Hint
	if what == "" {
		what = st.Reason
	}
	fmt.Fprintln(Stderr, "browser-bridge: no browser is connected: "+what)
}

// absolutePaths resolves upload's relative paths against the working
// directory, as a person at a shell means them (docs/report.pdf). Only
// the CLI does: an agent over MCP has no working directory the user can
// see, so there a relative path stays refused. The daemon checks the
// resolved paths by the same rules as any other.
func absolutePaths(in *tool.Input, raw json.RawMessage) (json.RawMessage, error) {
	if !slices.ContainsFunc(in.Paths, func(p string) bool { return p != "" && !filepath.IsAbs(p) }) {
		return raw, nil
	}
	abs := make([]string, len(in.Paths))
	for i, p := range in.Paths {
		abs[i] = p
		if p != "" && !filepath.IsAbs(p) {
			a, err := filepath.Abs(p)
			if err != nil {
				return nil, protocol.Errorf(protocol.CodeInvalidArgument, "resolving the upload path %q against the working directory: %v; give an absolute path", p, err)
			}
			abs[i] = a
		}
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, protocol.Errorf(protocol.CodeInvalidArgument, "%v", err)
	}
	obj["paths"], _ = json.Marshal(abs)
	return json.Marshal(obj)
}

// connectSlack is how much longer than a call's deadline the CLI tries to
// reach the daemon (starting it if needed, retrying a busy one).
const connectSlack = time.Second

// viaDaemon connects to the daemon (starting it if needed) as the CLI's
// session, runs one request with progress on stderr, and prints its JSON
// result or its coded error. deadline is the request's: reaching the
// daemon gets no longer than it plus connectSlack, so that a stuck daemon
// costs the caller what it asked for, not the client's own retries.
func viaDaemon(ctx context.Context, deadline time.Duration, req func(c *client.Client, progress func(string)) (json.RawMessage, error)) error {
	layout, err := paths.Default()
	if err != nil {
		return printError(protocol.AsError(err), 1)
	}
	sess, err := session()
	if err != nil {
		return printError(protocol.AsError(err), 2)
	}
	cctx, cancel := context.WithTimeout(ctx, deadline+connectSlack)
	c, err := client.Connect(cctx, layout, sess)
	cancel()
	if protocol.CodeOf(err) != "" {
		e := protocol.AsError(err)
		return printError(e, exitCode(e))
	}
	if err != nil {
		return printError(protocol.Errorf(protocol.CodeInternal, "cannot reach the daemon: %v", err), 1)
	}
	defer c.Close()
	res, err := req(c, func(msg string) { fmt.Fprintln(Stderr, msg) })
	if err != nil {
		e := callError(err)
		return printError(e, exitCode(e))
	}
	return printRaw(res)
}

// callError is the coded error of a failed request: the daemon's, or for
// a request the CLI gave up on (Ctrl-C, a signal) the code the daemon
// gives a cancelled call, not internal_error "context canceled".
func callError(err error) *protocol.Error {
	switch {
	case errors.Is(err, context.Canceled):
		return protocol.Errorf(protocol.CodeTimeout, "the call was cancelled by the caller (Ctrl-C or a signal) before it finished; run status to see where it got, then run it again if needed")
	case errors.Is(err, context.DeadlineExceeded):
		return protocol.Errorf(protocol.CodeTimeout, "the call ran out of time before the daemon answered; check `browser-bridge status` and the daemon log")
	}
	return protocol.AsError(err)
}

// exitCode is the exit status of a failure: 2 for bad input, whether the
// CLI or the daemon found it (help says so), else 1.
func exitCode(e *protocol.Error) int {
	if e.Code == protocol.CodeInvalidArgument {
		return 2
	}
	return 1
}

// printRaw prints a JSON result from the daemon, indented.
func printRaw(res json.RawMessage) error {
	var pretty any
	if json.Unmarshal(res, &pretty) == nil {
		return printJSON(pretty)
	}
	return printJSON(res)
}

// session is the CLI's session: BROWSER_BRIDGE_WORKSPACE or session:cli.
// A name with a control character is refused: it would be printed in the
// audit trail and in errors, where a newline or an ESC could forge lines
// or drive the reader's terminal. So are invisible characters and the
// names the trail keeps for the user and the extension (audit.CheckName):
// the trail must not show a program's lines as the user's.
func session() (string, error) {
	w := os.Getenv(EnvWorkspace)
	if w == "" {
		return "session:cli", nil
	}
	if err := audit.CheckName(w); err != nil {
		return "", protocol.Errorf(protocol.CodeInvalidArgument, "%s: %v; name the workspace with other, visible text", EnvWorkspace, err)
	}
	return w, nil
}

func printJSON(v any) error {
	enc := json.NewEncoder(Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// printError prints {"error":{code,message}} on stdout (the only thing a
// caller parses) and asks main for exit code.
func printError(e *protocol.Error, code int) error {
	printJSON(map[string]any{"error": e})
	return &ExitError{Code: code}
}

// parseFlags turns --name value / --name=value flags into a tool input. The
// names and types come from the contract's Input (tool.Fields), so the CLI always
// takes exactly the parameters the tool takes.
func parseFlags(action string, args []string) (map[string]any, error) {
	kinds := paramKinds()
	input := map[string]any{"action": action}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			return nil, protocol.Errorf(protocol.CodeInvalidArgument, "unexpected argument %q: parameters are flags such as --url URL", tool.Echo(a))
		}
		if isHelpFlag(a) {
			return nil, errHelped
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		kind, ok := kinds[name]
		if !ok || name == "action" {
			return nil, unknownFlag(action, name)
		}
		if _, dup := input[name]; dup {
			return nil, protocol.Errorf(protocol.CodeInvalidArgument, "flag --%s is given twice; give it once", name)
		}
		if !hasVal {
			if kind == reflect.Bool {
				// --checked, or --checked false (as people write it).
				val = "true"
				if i+1 < len(args) && (args[i+1] == "true" || args[i+1] == "false") {
					i++
					val = args[i]
				}
			} else {
				if i+1 >= len(args) {
					return nil, protocol.Errorf(protocol.CodeInvalidArgument, "flag --%s needs a value", name)
				}
				i++
				val = args[i]
			}
		}
		v, err := convert(kind, val)
		if err != nil {
			return nil, protocol.Errorf(protocol.CodeInvalidArgument, "flag --%s: %v", name, err)
		}
		input[name] = v
	}
	return input, nil
}

func convert(kind reflect.Kind, val string) (any, error) {
	switch kind {
	case reflect.Int:
		n, err := strconv.Atoi(val)
		if errors.Is(err, strconv.ErrRange) {
			return nil, fmt.Errorf("%s is out of range: beyond any value it takes", tool.Echo(val))
		}
		if err != nil {
			return nil, fmt.Errorf("%q is not a whole number", tool.Echo(val))
		}
		return n, nil
	case reflect.Bool:
		b, err := strconv.ParseBool(val)
		if err != nil {
			return nil, fmt.Errorf("%q is not true or false", tool.Echo(val))
		}
		return b, nil
	case reflect.Float64:
		f, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", tool.Echo(val))
		}
		return f, nil
	case reflect.Slice:
		// A JSON array keeps commas inside values; otherwise split on commas.
		// (fill's --fields is an array of objects: the input's check says
		// what each item must be.)
		if strings.HasPrefix(strings.TrimSpace(val), "[") {
			var list []any
			if err := json.Unmarshal([]byte(val), &list); err != nil {
				return nil, fmt.Errorf("%q is not a JSON array", tool.Echo(val))
			}
			return list, nil
		}
		return strings.Split(val, ","), nil
	case reflect.Interface:
		// A string or an object (--to top for scroll, --to '{"text":"Bin"}'
		// for drag).
		if !strings.HasPrefix(strings.TrimSpace(val), "{") {
			return val, nil
		}
		fallthrough
	case reflect.Struct:
		var obj map[string]any
		if err := json.Unmarshal([]byte(val), &obj); err != nil {
			return nil, fmt.Errorf("%q is not a JSON object", tool.Echo(val))
		}
		return obj, nil
	}
	return val, nil
}

func paramKinds() map[string]reflect.Kind {
	out := map[string]reflect.Kind{}
	for _, f := range tool.Fields() {
		out[f.Name] = f.Elem().Kind()
		if f.Elem() == reflect.TypeFor[tool.To]() {
			out[f.Name] = reflect.Interface // a string or an object
		}
	}
	return out
}
