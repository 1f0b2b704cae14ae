package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// This file is help and the suggestions on a typo. Help goes to stdout
// and exits 0 only when asked for (`ACTION --help`, `help ACTION`); on an
// error stdout keeps carrying only JSON, and the sentence for people,
// with "did you mean", goes to stderr.

// errHelped ends a command that printed the help asked for: Run turns it
// into a clean exit.
var errHelped = errors.New("help printed")

// isHelpFlag reports whether arg asks for help.
func isHelpFlag(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// help prints the help of one command or action on stdout.
func help(ctx context.Context, name string) error {
	c, ok := commands[name]
	if !ok {
		return unknownCommand(name)
	}
	if _, isAction := tool.Lookup(name); isAction {
		actionHelp(Stdout, name)
		return nil
	}
	if c.flags {
		// A command with flags prints them from its own flag set.
		if err := c.run(ctx, []string{"--help"}); !errors.Is(err, errHelped) {
			return err
		}
		return nil
	}
	fmt.Fprintf(Stdout, "browser-bridge %s: %s\n", name, c.summary)
	return nil
}

// unknownCommand says so on stdout (JSON) and stderr (with the closest
// names), and exits 2.
func unknownCommand(name string) error {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	msg := fmt.Sprintf("unknown command %q", tool.Echo(name))
	if s := tool.Closest(name, names); len(s) > 0 {
		msg += "; did you mean " + orList(s) + "?"
	}
	msg += " (browser-bridge help lists the commands)"
	fmt.Fprintln(Stderr, "browser-bridge: "+msg)
	return printError(protocol.Errorf(protocol.CodeInvalidArgument, "%s", msg), 2)
}

// actionHelp is an action's own help: what it does and the flags it takes
// (its JSON parameters), its own first, then the locator's and the common
// ones.
func actionHelp(w io.Writer, action string) {
	spec, _ := tool.Lookup(action)
	fmt.Fprintf(w, "browser-bridge %s: %s\n\n", action, strings.TrimSuffix(spec.Summary, "."))
	fmt.Fprintf(w, "Usage: browser-bridge %s [--flag value]…   or   browser-bridge call '{\"action\":%q,…}'\n", action, action)
	for _, group := range spec.Needs {
		what := tool.Alternatives(group)
		if slices.Equal(group, tool.LocatorParams) {
			what = "a locator"
		}
		fmt.Fprintf(w, "Needs %s.\n", what)
	}
	var own, locator, common []tool.Field
	for _, f := range tool.Fields() {
		switch {
		case f.Name == "action" || !spec.Takes(f.Name):
		case slices.Contains(spec.Params, f.Name):
			own = append(own, f)
		case slices.Contains(tool.CommonParams, f.Name):
			common = append(common, f)
		default:
			locator = append(locator, f)
		}
	}
	section := func(title string, fields []tool.Field) {
		if len(fields) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s:\n", title)
		for _, f := range fields {
			fmt.Fprintf(w, "  --%s %s\n", f.Name, flagType(f))
			if f.Doc != "" {
				fmt.Fprintf(w, "      %s\n", f.Doc)
			}
		}
	}
	section("Flags", own)
	section("Locator (one of selector, text, role+name, label, placeholder, ref, x+y)", locator)
	section("Common flags", common)
	fmt.Fprintln(w, "\nOutput: the JSON result on stdout, or {\"error\":{\"code\",\"message\"}} and exit 1 (2 for bad input).")
}

// flagType names what a flag's value is, as people write it.
func flagType(f tool.Field) string {
	if len(f.Enum) > 0 {
		return strings.Join(f.Enum, "|")
	}
	switch k := paramKinds()[f.Name]; k {
	case reflect.Int:
		return "N"
	case reflect.Float64:
		return "NUMBER"
	case reflect.Bool:
		return "[true|false]"
	case reflect.Slice:
		return "A,B,… or JSON array"
	case reflect.Struct:
		return "JSON object"
	case reflect.Interface:
		return "VALUE or JSON object"
	}
	return "TEXT"
}

// unknownFlag is the message for a flag an action does not know, with the
// closest flags the action takes.
func unknownFlag(action, name string) error {
	spec, _ := tool.Lookup(action)
	var takes []string
	for _, f := range tool.Fields() {
		if f.Name != "action" && spec.Takes(f.Name) {
			takes = append(takes, f.Name)
		}
	}
	msg := fmt.Sprintf("unknown flag --%s", tool.Echo(name))
	if s := tool.Closest(name, takes); len(s) > 0 {
		msg += "; did you mean --" + strings.Join(s, " or --") + "?"
	}
	msg += fmt.Sprintf(" (browser-bridge %s --help lists its flags)", action)
	fmt.Fprintln(Stderr, "browser-bridge "+action+": "+msg)
	return protocol.Errorf(protocol.CodeInvalidArgument, "%s", msg)
}

// parseFlagSet parses the flags of a command that is not an action, with
// at most maxArgs arguments after them (-1: any). --help prints the
// command's help on stdout (errHelped); a bad flag or argument is said on
// stderr, with the closest flag, and exits 2.
func parseFlagSet(fs *flag.FlagSet, args []string, maxArgs int) error {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	name := fs.Name()
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		flagSetHelp(Stdout, fs)
		return errHelped
	}
	if err == nil && maxArgs >= 0 && fs.NArg() > maxArgs {
		err = fmt.Errorf("unexpected argument %q", fs.Arg(maxArgs))
	}
	if err == nil {
		return nil
	}
	msg := err.Error()
	if bad, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		bad = strings.TrimLeft(bad, "-")
		msg = "unknown flag --" + bad
		var known []string
		fs.VisitAll(func(f *flag.Flag) { known = append(known, f.Name) })
		if s := tool.Closest(bad, known); len(s) > 0 {
			msg += "; did you mean --" + strings.Join(s, " or --") + "?"
		}
	}
	msg = fmt.Sprintf("%s (browser-bridge %s --help lists its flags)", msg, name)
	fmt.Fprintf(Stderr, "browser-bridge %s: %s\n", name, msg)
	// The JSON error on stdout as well, as for any failure (the README's
	// promise; log -n abc printed nothing there).
	return printError(protocol.Errorf(protocol.CodeInvalidArgument, "%s", msg), 2)
}

// flagSetHelp is a command's help: its summary and its flags.
func flagSetHelp(w io.Writer, fs *flag.FlagSet) {
	first, _, _ := strings.Cut(fs.Name(), " ")
	fmt.Fprintf(w, "browser-bridge %s: %s\n", fs.Name(), commands[first].summary)
	n := 0
	fs.VisitAll(func(f *flag.Flag) {
		if n++; n == 1 {
			fmt.Fprintln(w, "\nFlags:")
		}
		typ, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(w, "  %s\n      %s", strings.TrimSpace("--"+f.Name+" "+typ), usage)
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			fmt.Fprintf(w, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
}

// orList is "a", "a or b", "a, b or c", each quoted.
func orList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
