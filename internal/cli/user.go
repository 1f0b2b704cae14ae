package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"sort"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/audit"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/policy"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/settings"
)

// This file is the user's own controls: pause and resume, the site rules,
// and the audit trail. They act on the settings file and the trail in the
// state folder, so they work with or without a daemon, at once.

// runPause stops every action but status (paused_by_user) until resume.
func runPause(ctx context.Context, args []string) error { return setPaused(args, true) }

// runResume undoes pause.
func runResume(ctx context.Context, args []string) error { return setPaused(args, false) }

func setPaused(args []string, paused bool) error {
	if len(args) > 0 {
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "pause and resume take no arguments"), 2)
	}
	layout, err := paths.Default()
	if err != nil {
		return printError(protocol.AsError(err), 1)
	}
	s, err := settings.Load(layout)
	if err != nil {
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "%v", err), 2)
	}
	s.Paused = paused
	if err := settings.Save(layout, s); err != nil {
		return printError(protocol.Errorf(protocol.CodeInternal, "%v", err), 1)
	}
	return printJSON(map[string]any{"paused": paused, "settings": settings.File(layout)})
}

// runPolicy runs `policy allow|deny PATTERN`, `policy remove PATTERN`,
// `policy list`, `policy program-evaluate on|off` and `policy evaluate
// on|off`: the site rules the daemon and the extension enforce, whether
// programs may run scripts in their pages, and whether the agent may
// (the evaluate action, off by default).
func runPolicy(ctx context.Context, args []string) error {
	usage := "usage: policy allow PATTERN | deny PATTERN | remove PATTERN | list | program-evaluate on|off | evaluate on|off (a pattern is example.com, *.example.com, example.com/admin/* or https://example.com/pay/*)"
	if len(args) == 0 {
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "%s", usage), 2)
	}
	layout, err := paths.Default()
	if err != nil {
		return printError(protocol.AsError(err), 1)
	}
	s, err := settings.Load(layout)
	if err != nil {
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "%v", err), 2)
	}
	switch sub := args[0]; {
	case sub == "list" && len(args) == 1:
	case (sub == "allow" || sub == "deny") && len(args) == 2:
		if _, err := s.Policy.Add(sub, args[1]); err != nil {
			return printError(protocol.Errorf(protocol.CodeInvalidArgument, "%v", err), 2)
		}
	case sub == "program-evaluate" && len(args) == 2 && (args[1] == "on" || args[1] == "off"):
		// Programs' scripts in pages (the program door's Runtime.evaluate
		// and callFunctionOn): on by default, as Hive's server needs them.
		s.RefuseProgramEvaluate = args[1] == "off"
	case sub == "evaluate" && len(args) == 2 && (args[1] == "on" || args[1] == "off"):
		// The agent's evaluate action: off by default, the user's choice.
		s.AllowEvaluate = args[1] == "on"
	case sub == "remove" && len(args) == 2:
		if !s.Policy.Remove(args[1]) {
			return printError(protocol.Errorf(protocol.CodeInvalidArgument, "%q is not a site rule; see browser-bridge policy list", args[1]), 2)
		}
	default:
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "%s", usage), 2)
	}
	if args[0] != "list" {
		if err := settings.Save(layout, s); err != nil {
			return printError(protocol.Errorf(protocol.CodeInternal, "%v", err), 1)
		}
	}
	return printJSON(map[string]any{
		"allow": nonNil(s.Policy.Allow), "deny": nonNil(s.Policy.Deny), "builtInDeny": policy.DefaultDeny,
		"programEvaluate": !s.RefuseProgramEvaluate,
		"evaluate":        s.AllowEvaluate,
		"note":            "deny wins; with an allow list, only what it matches is allowed",
	})
}

func nonNil(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// runLog prints the audit trail: one line per command, readable, or the
// JSON lines with --json; --follow keeps printing new ones.
func runLog(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("log", flag.ContinueOnError)
	follow := fs.Bool("follow", false, "keep printing commands as they run")
	sess := fs.String("session", "", "only this session (e.g. session:cli, or an MCP session id)")
	asJSON := fs.Bool("json", false, "print the JSON lines as stored")
	n := fs.Int("n", 50, "how many of the latest commands to print first (0: all)")
	if err := parseFlagSet(fs, args, 0); err != nil {
		return err
	}
	if *n < 0 {
		// -n -5 printed the whole log, as 0 does.
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "-n must be a count of commands, or 0 for all of them, not %d", *n), 2)
	}
	layout, err := paths.Default()
	if err != nil {
		return printError(protocol.AsError(err), 1)
	}
	f := audit.Filter{Session: *sess}
	print := func(e audit.Entry) {
		if *asJSON {
			b, _ := audit.MarshalLine(e)
			fmt.Fprintln(Stdout, string(b))
			return
		}
		fmt.Fprintln(Stdout, logLine(e))
	}
	entries, err := audit.Read(layout, f)
	if err != nil {
		return printError(protocol.Errorf(protocol.CodeInternal, "reading %s: %v", audit.File(layout), err), 1)
	}
	if *n > 0 && len(entries) > *n {
		entries = entries[len(entries)-*n:]
	}
	for _, e := range entries {
		print(e)
	}
	if !*follow {
		return nil
	}
	return audit.Follow(ctx, layout, f, print)
}

// logLine is one entry as a person reads it:
// 06:53:01.123  session:cli  click  ok  14ms  browser 0 (Chrome)  tab 12  https://…  text=Save
// Every field may hold outside text (a page's words, a workspace name), so
// the line is escaped whole: it stays one line and drives no terminal.
func logLine(e audit.Entry) string {
	parts := []string{e.Time.Local().Format("2006-01-02 15:04:05.000"), e.Session, e.Action, e.Code, fmt.Sprintf("%dms", e.Ms)}
	if e.Workspace != "" && e.Workspace != e.Session {
		parts = append(parts, "workspace "+e.Workspace)
	}
	if e.Browser != "" {
		parts = append(parts, "browser "+e.Browser)
	}
	if e.TabID != 0 {
		parts = append(parts, fmt.Sprintf("tab %d", e.TabID))
	}
	if e.URL != "" {
		parts = append(parts, e.URL)
	}
	if len(e.Params) > 0 {
		parts = append(parts, compactParams(e.Params))
	}
	return audit.Printable(strings.Join(parts, "  "))
}

func compactParams(p map[string]any) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		if k != "action" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%s=%s", k, paramText(p[k]))
	}
	return b.String()
}

// paramText is one parameter as the log line shows it: a string as it is,
// anything else as JSON, so IDs read as the integers they are
// (tabId=1207056650, not %v's 1.20705665e+09).
func paramText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
