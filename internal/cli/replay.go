package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"path/filepath"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/atomicfile"

	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/replay"
)

// The command is added to the table here, after cli.go's init has made
// it (a package's files are initialised in the order of their names).
func init() {
	commands["replay"] = command{runReplay, "show what the agent did in a workspace: --workspace ID | --session ID with --out FILE.html|FILE.gif; --list; --clear; --off|--on", true}
}

// runReplay writes a workspace's (or a session's) timeline as an HTML
// page or an animated GIF, lists the timelines kept, or deletes them.
func runReplay(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	ws := fs.String("workspace", "", "the workspace whose timeline to write (an ID from replay --list)")
	sess := fs.String("session", "", "every step of this session, across its workspaces (e.g. session:cli)")
	out := fs.String("out", "", "the file to write: FILE.html (a self-contained page) or FILE.gif (an animated GIF)")
	list := fs.Bool("list", false, "list the timelines kept")
	clear := fs.Bool("clear", false, "delete every timeline kept")
	off := fs.Bool("off", false, "stop recording timelines (those kept stay until --clear)")
	on := fs.Bool("on", false, "record timelines again after --off")
	if err := parseFlagSet(fs, args, 0); err != nil {
		return err
	}
	layout, err := paths.Default()
	if err != nil {
		return printError(protocol.AsError(err), 1)
	}
	store := replay.New(layout)
	modes := 0
	for _, b := range []bool{*list, *clear, *off, *on, *ws != "" || *sess != "" || *out != ""} {
		if b {
			modes++
		}
	}
	if modes != 1 {
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "give one of --list, --clear, --off, --on, or --workspace ID (or --session ID) with --out FILE.html|FILE.gif; see browser-bridge replay --help"), 2)
	}
	switch {
	case *list:
		sums, err := store.List()
		if err != nil {
			return printError(protocol.Errorf(protocol.CodeInternal, "reading %s: %v", store.Dir, err), 1)
		}
		return printJSON(map[string]any{"timelines": sums, "folder": store.Dir, "recording": !store.Off()})
	case *clear:
		n, err := store.Clear()
		if err != nil {
			return printError(protocol.Errorf(protocol.CodeInternal, "deleting the timelines in %s: %v", store.Dir, err), 1)
		}
		return printJSON(map[string]any{"removed": n, "folder": store.Dir})
	case *off, *on:
		if err := store.SetOff(*off); err != nil {
			return printError(protocol.Errorf(protocol.CodeInternal, "turning recording %s: %v", map[bool]string{true: "off", false: "on"}[*off], err), 1)
		}
		return printJSON(map[string]any{"recording": *on})
	}
	if (*ws == "") == (*sess == "") {
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "give --workspace ID or --session ID (one of them; replay --list names them)"), 2)
	}
	ext := strings.ToLower(filepath.Ext(*out))
	if ext != ".html" && ext != ".htm" && ext != ".gif" {
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "--out must name a .html or a .gif file (got %q)", *out), 2)
	}
	var tl replay.Timeline
	if *ws != "" {
		tl, err = store.Read(*ws)
	} else {
		tl, err = store.Session(*sess)
	}
	if errors.Is(err, replay.ErrNoTimeline) || err == nil && len(tl.Entries) == 0 {
		what := "workspace " + *ws
		if *sess != "" {
			what = "session " + *sess
		}
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "no timeline is kept for %s; browser-bridge replay --list names the ones kept", what), 1)
	}
	if err != nil {
		return printError(protocol.Errorf(protocol.CodeInternal, "reading the timeline: %v", err), 1)
	}
	var b bytes.Buffer
	if ext == ".gif" {
		err = replay.WriteGIF(&b, tl, store.Image)
	} else {
		err = replay.WriteHTML(&b, tl, store.Image)
	}
	if err != nil {
		return printError(protocol.Errorf(protocol.CodeInternal, "writing the replay: %v", err), 1)
	}
	// The replay shows the user's pages: only the user may read it, also
	// when the file was there before (a new file is renamed over it).
	if err := atomicfile.Write(*out, b.Bytes(), 0o600); err != nil {
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "writing %s: %v; pick a folder you can write to", *out, err), 1)
	}
	captures := 0
	for _, e := range tl.Entries {
		if e.Image != "" {
			captures++
		}
	}
	return printJSON(map[string]any{"path": *out, "steps": len(tl.Entries), "captures": captures, "bytes": b.Len()})
}
