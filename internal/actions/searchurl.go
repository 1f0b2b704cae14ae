// The search engine's URL template, which the search action uses and
// status shows.

package actions

import (
	"os"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/settings"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// The search engine: a URL template with {query}, from
// BROWSER_BRIDGE_SEARCH_URL, else the "searchUrl" of settings.json in the
// state folder, else Google.
const (
	EnvSearchURL     = "BROWSER_BRIDGE_SEARCH_URL"
	DefaultSearchURL = "https://www.google.com/search?q={query}"
)

var serpScript = script("serp", "page/serp.js")

// Hit is one classified search result.
type Hit = tool.Hit

// searchTemplate is the engine URL template in force and where it comes
// from, for the messages that name it (status shows both).
func searchTemplate() (tmpl, from string, err error) {
	tmpl, from = os.Getenv(EnvSearchURL), EnvSearchURL+" (as the daemon read it when it started)"
	if tmpl == "" {
		l, err := paths.Default()
		if err != nil {
			return "", "", err
		}
		s, err := settings.Load(l)
		if err != nil {
			return "", "", invalid("%v", err)
		}
		tmpl, from = s.SearchURL, "searchUrl in "+settings.File(l)
	}
	if tmpl == "" {
		tmpl, from = DefaultSearchURL, "the default; set searchUrl in settings.json to change it"
	}
	if !strings.Contains(tmpl, "{query}") {
		return "", "", invalid("the search URL %q has no {query} placeholder; fix %s", tmpl, from)
	}
	return tmpl, from, nil
}
