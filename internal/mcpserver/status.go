package mcpserver

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"unicode"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// maxStatusTabs bounds the tab lines of a status text; a user with
// hundreds of tabs should not fill the model's context.
const maxStatusTabs = 150

// statusText renders a status result as a few readable lines. First comes
// what will make the agent's next action fail, since a model acts on the
// text and may never look in structuredContent: a disabled bridge, a
// pause (with the sentence those actions fail with), no browser. Then
// whether evaluate is on, the browsers when there is a choice, each window
// with its tabs, and the workspaces. Not connected, it gives the reason
// and the diagnostics.
func statusText(s *tool.StatusResult) string {
	var b strings.Builder
	if s.Disabled != "" {
		fmt.Fprintf(&b, "Disabled (actions fail with %s): %s\n", protocol.CodeBridgeDisabled, oneLine(s.Disabled))
	}
	if s.Paused {
		fmt.Fprintf(&b, "Paused (actions fail with %s): %s\n", protocol.CodePausedByUser, oneLine(cmp.Or(s.PausedMessage, "the user has paused the bridge")))
	}
	blocked := b.Len()
	if !s.Connected {
		// After what blocks, the line is what the user must do, for the agent to pass
		// on; the diagnostics after it are for a closer look.
		var diag any = s.Diagnostics
		if m, ok := s.Diagnostics.(map[string]any); ok {
			if hint, ok := m["hint"].(string); ok && hint != "" {
				fmt.Fprintf(&b, "Not connected: no browser is connected. Ask the user to %s.\n", hint)
				m = maps.Clone(m)
				delete(m, "hint")
				diag = m
			}
		}
		if b.Len() == blocked {
			fmt.Fprintf(&b, "Not connected: %s\n", cmp.Or(s.Reason, "no extension is connected"))
		}
		b.WriteString("diagnostics: " + compactJSON(diag, maxRestChars))
		return b.String()
	}
	b.WriteString("Connected to Chrome.")
	if e := s.Problem; e != nil {
		fmt.Fprintf(&b, " %s: %s", e.Code, e.Message)
	}
	if a := s.ActiveTab; a != nil {
		fmt.Fprintf(&b, " Active tab: %d.", a.TabID)
	}
	b.WriteString(" Evaluate: " + onOff(s.Evaluate) + ".")
	if len(s.Browsers) > 1 {
		// One browser needs no choosing; with more, the agent names one by
		// slot or label (the browser parameter), so both are here.
		b.WriteString("\nbrowsers: ")
		for i, br := range s.Browsers {
			flags := flagsOf(lineFlag{"shown", br.Shown}, lineFlag{"default", br.Default})
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "slot %d %q%s", br.Slot, br.Label, paren(flags))
		}
	}
	fence := fenceName(titlesOf(s))
	n := 0
	for _, w := range s.Windows {
		flags := flagsOf(lineFlag{"focused", w.Focused}, lineFlag{"incognito", w.Incognito})
		fmt.Fprintf(&b, "\nwindow %d%s", w.WindowID, paren(flags))
		for _, t := range w.Tabs {
			if n++; n > maxStatusTabs {
				continue
			}
			b.WriteString("\n  " + tabLine(t, fence))
		}
	}
	if n > maxStatusTabs {
		fmt.Fprintf(&b, "\n(%d more tabs in structuredContent)", n-maxStatusTabs)
	}
	if len(s.Workspaces) > 0 {
		b.WriteString("\nworkspaces:")
		for _, w := range s.Workspaces {
			tabs, _ := json.Marshal(w.Tabs)
			fmt.Fprintf(&b, "\n  %s: window %d, tabs %s", oneLine(w.ID), w.WindowID, tabs)
		}
	}
	return b.String()
}

// tabLine is "[12] <page-NAME part="title">Title</page-NAME> — https://…
// (active, owned)": the title is the page's words, fenced as in other
// results so that a title cannot pass for the bridge's own line.
func tabLine(t tool.StatusTab, fence string) string {
	flags := flagsOf(lineFlag{"active", t.Active}, lineFlag{"owned", t.Owned}, lineFlag{"workspace page, not a target", t.WorkspacePage})
	if t.Redacted {
		return fmt.Sprintf("[%d] (the user's incognito tab)%s", t.TabID, paren(flags))
	}
	title := "(untitled)"
	if t.Title != "" {
		title = inlineFence(fence, "title", t.Title)
	}
	return fmt.Sprintf("[%d] %s — %s%s", t.TabID, title, oneLine(t.URL), paren(flags))
}

// titlesOf lists the titles of s's tabs, which the status fence's name
// must not appear in.
func titlesOf(s *tool.StatusResult) []string {
	var out []string
	for _, w := range s.Windows {
		for _, t := range w.Tabs {
			out = append(out, t.Title)
		}
	}
	return out
}

// lineFlag is a word a line carries in parentheses when on.
type lineFlag struct {
	name string
	on   bool
}

func flagsOf(fs ...lineFlag) []string {
	var out []string
	for _, f := range fs {
		if f.on {
			out = append(out, f.name)
		}
	}
	return out
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

func paren(flags []string) string {
	if len(flags) == 0 {
		return ""
	}
	return " (" + strings.Join(flags, ", ") + ")"
}

// oneLine keeps text from a page or an agent (a title, a URL, a
// workspace name) on the line the bridge gives it: control characters and
// line separators become spaces, so such text cannot start a line that
// reads as the bridge's own.
func oneLine(s string) string {
	if !strings.ContainsFunc(s, breaksLine) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if breaksLine(r) {
			return ' '
		}
		return r
	}, s)
}

func breaksLine(r rune) bool { return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' }
