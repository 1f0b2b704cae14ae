package mcpserver

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"unicode"
)

// maxStatusTabs bounds the tab lines of a status text; a user with
// hundreds of tabs should not fill the model's context.
const maxStatusTabs = 150

// statusText renders a status result as a few readable lines: whether
// Chrome is connected, then each window with its tabs, then the
// workspaces. Not connected, it gives the reason and the diagnostics.
func statusText(m map[string]any) string {
	var b strings.Builder
	if m["connected"] != true {
		// The first line is what the user must do, for the agent to pass
		// on; the diagnostics after it are for a closer look.
		diag, _ := m["diagnostics"].(map[string]any)
		if hint, ok := diag["hint"].(string); ok && hint != "" {
			fmt.Fprintf(&b, "Not connected: no browser is connected. Ask the user to %s.\n", hint)
			diag = maps.Clone(diag)
			delete(diag, "hint")
		} else {
			fmt.Fprintf(&b, "Not connected: %v\n", orString(m["reason"], "no extension is connected"))
		}
		b.WriteString("diagnostics: " + compactJSON(diag, maxRestChars))
		return b.String()
	}
	b.WriteString("Connected to Chrome.")
	if e, ok := m["error"].(map[string]any); ok {
		fmt.Fprintf(&b, " %v: %v", e["code"], e["message"])
	}
	if a, ok := m["activeTab"].(map[string]any); ok {
		fmt.Fprintf(&b, " Active tab: %v.", a["tabId"])
	}
	n := 0
	windows, _ := m["windows"].([]any)
	for _, w := range windows {
		w, _ := w.(map[string]any)
		var flags []string
		if w["focused"] == true {
			flags = append(flags, "focused")
		}
		if w["incognito"] == true {
			flags = append(flags, "incognito")
		}
		fmt.Fprintf(&b, "\nwindow %v%s", w["windowId"], paren(flags))
		tabs, _ := w["tabs"].([]any)
		for _, t := range tabs {
			if n++; n > maxStatusTabs {
				continue
			}
			b.WriteString("\n  " + tabLine(t))
		}
	}
	if n > maxStatusTabs {
		fmt.Fprintf(&b, "\n(%d more tabs in structuredContent)", n-maxStatusTabs)
	}
	if ws, _ := m["workspaces"].([]any); len(ws) > 0 {
		b.WriteString("\nworkspaces:")
		for _, w := range ws {
			w, _ := w.(map[string]any)
			tabs, _ := json.Marshal(w["tabs"])
			fmt.Fprintf(&b, "\n  %s: window %v, tabs %s", oneLine(fmt.Sprint(w["id"])), w["windowId"], tabs)
		}
	}
	return b.String()
}

// tabLine is "[12] Title — https://… (active, owned)".
func tabLine(t any) string {
	tm, _ := t.(map[string]any)
	var flags []string
	for _, f := range []string{"active", "owned"} {
		if tm[f] == true {
			flags = append(flags, f)
		}
	}
	if tm["redacted"] == true {
		return fmt.Sprintf("[%v] (the user's incognito tab)%s", tm["tabId"], paren(flags))
	}
	return fmt.Sprintf("[%v] %s — %s%s", tm["tabId"], oneLine(orString(tm["title"], "(untitled)")), oneLine(fmt.Sprint(tm["url"])), paren(flags))
}

func paren(flags []string) string {
	if len(flags) == 0 {
		return ""
	}
	return " (" + strings.Join(flags, ", ") + ")"
}

func orString(v any, def string) string {
	if s, ok := v.(string); ok && s != "" {
		return s
	}
	return def
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
