package mcpserver

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"unicode"

	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// maxStatusTabs bounds the tab lines of a status text; a user with
// hundreds of tabs should not fill the model's context.
const maxStatusTabs = 150

// statusText renders a status result as a few readable lines: whether
// Chrome is connected, then each window with its tabs, then the
// workspaces. Not connected, it gives the reason and the diagnostics.
func statusText(s *tool.StatusResult) string {
	var b strings.Builder
	if !s.Connected {
		// The first line is what the user must do, for the agent to pass
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
		if b.Len() == 0 {
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
	n := 0
	for _, w := range s.Windows {
		var flags []string
		if w.Focused {
			flags = append(flags, "focused")
		}
		if w.Incognito {
			flags = append(flags, "incognito")
		}
		fmt.Fprintf(&b, "\nwindow %d%s", w.WindowID, paren(flags))
		for _, t := range w.Tabs {
			if n++; n > maxStatusTabs {
				continue
			}
			b.WriteString("\n  " + tabLine(t))
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

// tabLine is "[12] Title — https://… (active, owned)".
func tabLine(t tool.StatusTab) string {
	var flags []string
	if t.Active {
		flags = append(flags, "active")
	}
	if t.Owned {
		flags = append(flags, "owned")
	}
	if t.Redacted {
		return fmt.Sprintf("[%d] (the user's incognito tab)%s", t.TabID, paren(flags))
	}
	return fmt.Sprintf("[%d] %s — %s%s", t.TabID, oneLine(cmp.Or(t.Title, "(untitled)")), oneLine(t.URL), paren(flags))
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
// reads as the bridge's own (issue 26, F12).
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
