package mcpserver

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// eventsLine is a page action's events (what it set off in its tab,
// internal/actions/report.go) as one line, and takes them out of m so
// that the rest of the text does not repeat them:
//
//	during this action: 1 error (<page-… part="error">Uncaught TypeError: …</page-…>), 1 failed request (GET /api/items → 500, requestId 20)
//
// The error's text is the page's words, so it is fenced as a title is.
// "" when the result has none.
func eventsLine(m map[string]any) string {
	raw, ok := m["events"]
	if !ok {
		return ""
	}
	delete(m, "events")
	b, _ := json.Marshal(raw)
	var ev tool.Events
	if json.Unmarshal(b, &ev) != nil {
		return ""
	}
	var parts []string
	if ev.Errors > 0 {
		p := plural(ev.Errors, "error")
		if ev.FirstError != "" {
			p += " (" + inlineFence(fenceName([]string{ev.FirstError}), "error", ev.FirstError) + ")"
		}
		parts = append(parts, p)
	}
	if n := len(ev.FailedRequests); n > 0 {
		reqs := make([]string, n)
		for i, f := range ev.FailedRequests {
			what := f.Error
			if f.Status != 0 {
				what = fmt.Sprint(f.Status)
			}
			reqs[i] = fmt.Sprintf("%s %s → %s, requestId %s", f.Method, oneLine(shortURL(f.URL, m)), what, f.RequestID)
		}
		parts = append(parts, plural(n, "failed request")+" ("+strings.Join(reqs, "; ")+")")
	}
	if ev.Navigated != "" {
		parts = append(parts, "navigated to "+oneLine(ev.Navigated))
	}
	if len(parts) == 0 {
		return ""
	}
	return "during this action: " + strings.Join(parts, ", ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// shortURL is u without its scheme and host when the result's page has
// the same origin: /api/items rather than http://localhost:3000/api/items.
func shortURL(u string, m map[string]any) string {
	page, _ := m["url"].(string)
	pu, err1 := url.Parse(page)
	ru, err2 := url.Parse(u)
	if err1 != nil || err2 != nil || pu.Host == "" || pu.Scheme != ru.Scheme || pu.Host != ru.Host {
		return u
	}
	return ru.RequestURI()
}
