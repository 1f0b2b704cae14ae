package actions

import (
	"net/url"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func init() { register("search", search) }

// search opens a results page for the query in the workspace (incognito
// unless the call says incognito: false) and reads its hits.
func search(r *run) (*tool.SearchResult, error) {
	q := strings.TrimSpace(r.in.Query)
	if q == "" {
		return nil, invalid("search needs a query")
	}
	tmpl, from, err := searchTemplate()
	if err != nil {
		return nil, err
	}
	target := strings.ReplaceAll(tmpl, "{query}", url.QueryEscape(q))
	if err := CheckURL(target); err != nil {
		return nil, invalid("the search URL template gives %q, which cannot be opened; fix %s", target, from)
	}
	// The results page is a new tab: the guard judges where it goes.
	if err := r.guards().askGuard(browser.TabInfo{URL: target}); err != nil {
		return nil, err
	}
	in := *r.in
	in.URL = target
	if in.Incognito == nil {
		yes := true
		in.Incognito = &yes
	}
	// Open as if the call had asked for the results page.
	orig := r.in
	r.in = &in
	o, err := r.opening().openInWorkspace()
	r.in = orig
	if err != nil {
		return nil, err
	}
	if o.LoadError != "" {
		// The engine could not be reached: say which URL was tried and
		// where it came from (a stale setting, a typo), not "no results".
		return nil, protocol.Errorf(protocol.CodeProtectedPage, "the search engine could not be reached (%s): the bridge tried %s, from %s (tab %d shows the browser's error page); fix the search URL or try again when it is reachable",
			o.LoadError, target, from, protocol.Tab(o.TabID))
	}
	r.settling().ensureQuietScript()
	tabID := o.TabID
	warnings, err := r.settling().settle(tabID, r.readReserve())
	if err != nil {
		return nil, err
	}
	var page struct {
		URL     string `json:"url"`
		Title   string `json:"title"`
		Blocked string `json:"blocked"`
		Results []Hit  `json:"results"`
	}
	if err := r.runPageTop(tabID, nil, serpScript, maxArgs{Max: 100}, &page); err != nil {
		return nil, err
	}
	switch page.Blocked {
	case "consent":
		return nil, protocol.Errorf(protocol.CodeBlockedByPolicy, "the search engine shows a consent wall instead of results (tab %d, %s): accept or decline it in that tab, then search again", protocol.Tab(tabID), page.URL)
	case "unusual_traffic":
		return nil, protocol.Errorf(protocol.CodeBlockedByPolicy, "the search engine asks to prove this is a person (\"unusual traffic\" check) instead of showing results (tab %d, %s): solve it in that tab or search later, or set %s to another engine", protocol.Tab(tabID), page.URL, EnvSearchURL)
	}
	if page.Results == nil {
		page.Results = []Hit{}
	}
	if len(page.Results) == 0 {
		warnings = append(warnings, "the page shows no results the bridge recognises; read it with extract")
	}
	incognito := false
	if t, err := r.tabInfo(tabID); err == nil {
		incognito = t.Incognito
	}
	return &tool.SearchResult{Page: tool.Page{TabID: o.TabID, URL: firstNonEmpty(page.URL, o.URL), Title: firstNonEmpty(page.Title, o.Title)}, Query: q,
		Results: page.Results, Workspace: o.Workspace, Incognito: incognito, Outcome: tool.Outcome{Warnings: append(o.Warnings, warnings...)}}, nil
}
