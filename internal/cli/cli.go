// Package cli is the command line: one file per subcommand. Run is the only
// entry point; output goes through Stdout and Stderr so tests can capture
// it. stdout carries only results (JSON); logs and progress go to stderr.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// Output streams, replaceable in tests.
var (
	Stdout io.Writer = os.Stdout
	Stderr io.Writer = os.Stderr
)

// ExitError asks main to exit with Code, printing nothing more (the command
// has already said what went wrong).
type ExitError struct{ Code int }

// Error implements error.
func (e *ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

type command struct {
	run     func(ctx context.Context, args []string) error
	summary string
	// flags: the command parses flags with parseFlagSet, which answers
	// --help itself; Run answers it for the others.
	flags bool
}

// commands is the route table of subcommands, actions included.
var commands map[string]command

// The table is filled in init: the commands' help reads it, so a
// declaration with a value would refer to itself.
func init() {
	commands = map[string]command{
		"daemon":          {runDaemon, "run the broker in the foreground (started on demand by every other command)", true},
		"host":            {runHost, "the native messaging host (Chrome starts it; not for people)", false},
		"launch":          {runLaunch, "start Chromium with the extension in a fresh profile and wait until it is connected", true},
		"call":            {runCall, "run one action given as a JSON object: call '{\"action\":\"open\",\"url\":\"…\"}'", false},
		"mcp":             {runMCP, "serve the use_user_browser tool to an agent over MCP (stdio); --print-config claude|codex|cursor|vscode", true},
		"version":         {runVersion, "print the version", false},
		"clean":           {runClean, "remove the screenshot files the bridge has written", false},
		"write-extension": {runWriteExtension, "write the extension to a folder for Load unpacked (default: the state folder)", false},
		"install":         {runInstall, "write the extension and register the native host with every Chromium browser found; prints the next step", true},
		"doctor":          {runDoctor, "check every link of the chain (state, secret, daemon, host manifests, extension) and say how to fix a broken one; --json", true},
		"disable":         {runDisable, "turn the bridge off: every action fails with bridge_disabled and browsers stop starting the host", true},
		"enable":          {runEnable, "turn the bridge back on and register the host again", true},
		"websocket":       {runWebSocket, "the opt-in WebSocket transport for Hive-compatible programs: enable [--url ws://127.0.0.1:14829/bridge] [--token T] | disable | status, each [--browser B]", true},
		"pause":           {runPause, "pause the agent: every action but status fails with paused_by_user until resume", false},
		"resume":          {runResume, "let the agent act again after pause", false},
		"policy":          {runPolicy, "site rules and script switches: policy allow|deny PATTERN, policy remove PATTERN, policy list, policy evaluate on|off, policy program-evaluate on|off", false},
		"log":             {runLog, "the audit trail, one line per command: [--follow] [--session ID] [--json] [-n N]", true},
		"uninstall":       {runUninstall, "stop the daemon and remove what install wrote (the manifests, the extension folder, the secret)", true},
	}
	for _, a := range tool.Names() {
		spec, _ := tool.Lookup(a)
		commands[a] = command{actionCommand(a), "action: " + strings.TrimSuffix(spec.Summary, ".") + " (flags: " + a + " --help)", false}
	}
}

// Run runs the subcommand named by args[0].
func Run(ctx context.Context, args []string) error {
	// Chrome starts a native host as `<path> chrome-extension://<id>/`
	// and cannot pass a subcommand, so that form means "host".
	if len(args) > 0 && strings.HasPrefix(args[0], "chrome-extension://") {
		return runHost(ctx, args)
	}
	if len(args) == 0 || isHelpFlag(args[0]) || args[0] == "help" && len(args) == 1 {
		usage(Stdout)
		return nil
	}
	if args[0] == "help" {
		return help(ctx, args[1])
	}
	c, ok := commands[args[0]]
	if !ok {
		return unknownCommand(args[0])
	}
	// Actions and commands with flags see --help where a flag may be (not
	// as a value: type --value --help types it); the rest take none, so
	// --help anywhere is a question (write-extension --help once made a
	// folder named --help).
	if _, isAction := tool.Lookup(args[0]); !isAction && !c.flags && slices.ContainsFunc(args[1:], isHelpFlag) {
		return help(ctx, args[0])
	}
	if err := c.run(ctx, args[1:]); !errors.Is(err, errHelped) {
		return err
	}
	return nil
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "browser-bridge: let an AI agent work in your own Chrome.")
	fmt.Fprintln(w, "\nUsage: browser-bridge <command> [flags]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-16s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nbrowser-bridge COMMAND --help (or browser-bridge help COMMAND) says what a command does and lists its flags.")
	fmt.Fprintln(w, "\nEnvironment: BROWSER_BRIDGE_HOME moves all state (socket, secret, registry, logs) under one folder.")
}
