package mcpserver

// This file is the words of the tool: what a model reads to use it well.
// The parameter names and types come from actions.Input by reflection
// (schema.go); everything a model needs beyond a name and a type lives
// here. describe_test.go fails when a field of actions.Input has no entry,
// so a new parameter can never go undocumented.

// param documents one parameter of actions.Input, keyed by its JSON name.
// Which actions take it, and what each action needs, is actions'
// business (actions.Applies, actions.Needs): the daemon checks it for
// every front end.
// A nested field (waitFor.selector) is keyed "parent.child"; without such
// an entry it borrows the top-level entry of the same name.
type param struct {
	desc string
	// enum lists the accepted values of a string (or of a list's items).
	enum []string
}

var params = map[string]param{
	"action":             {desc: "What to do; see the tool description."},
	"tabId":              {desc: "Tab to use (from status, open or search). Page actions default to the active tab."},
	"browserWorkspaceId": {desc: "Named workspace: its own window and tab group. Default: run:<runId>, else this MCP session."},
	"runId":              {desc: "Your task's ID: its tabs share one workspace. Also read from _meta.runId."},
	"timeoutMs":          {desc: "Deadline in ms (max and default 60000; status 5000)."},

	"url":       {desc: "http(s) or file URL, or about:blank."},
	"target":    {desc: "\"current\": load in the active tab instead of a new one.", enum: []string{"new", "current"}},
	"incognito": {desc: "true: an incognito window; false: a normal one (for logged-in work)."},
	"query":     {desc: "What to search for."},

	"selector":    {desc: "Locator: CSS selector."},
	"text":        {desc: "Locator: visible text (case-insensitive substring)."},
	"role":        {desc: "Locator: ARIA role, with name."},
	"name":        {desc: "Locator: accessible name, with role."},
	"label":       {desc: "Locator: a form control's label text."},
	"placeholder": {desc: "Locator: placeholder text."},
	"ref":         {desc: "Locator: ref from inspect."},
	"x":           {desc: "Locator: point x, with y."},
	"y":           {desc: "Locator: point y, with x."},
	"coordinates": {desc: "Space of x, y (default viewport).", enum: []string{"viewport", "document"}},
	"frameId":     {desc: "Frame to look in (from extract or inspect)."},
	"nth":         {desc: "0-based pick when several elements match."},
	"exact":       {desc: "Match text, name, label or placeholder exactly."},

	"waitFor":     {desc: "Wait first for one of selector, text, role+name, label, placeholder, ref (with frameId, nth, exact) or urlContains."},
	"urlContains": {desc: "Until the tab's URL contains this."},
	"load":        {desc: "Until the page has loaded."},
	"include":     {desc: "Return only these parts.", enum: []string{"markdown", "reader", "links", "headings", "text"}},
	"maxChars":    {desc: "Size budget of the result (default 20000)."},
	"offset":      {desc: "Continue at a previous result's nextOffset (same tabId)."},

	"dialog":     {desc: "Answer to dialogs the page shows during the action (default: accept alerts, dismiss others).", enum: []string{"accept", "dismiss"}},
	"inputMode":  {desc: "cdp: real input events (default); dom: DOM events.", enum: []string{"cdp", "dom"}},
	"button":     {desc: "Mouse button (default left).", enum: []string{"left", "right", "middle"}},
	"clickCount": {desc: "2 for a double click."},
	"value":      {desc: "Text to type."},
	"clear":      {desc: "Replace the field's content."},
	"keys":       {desc: "Keys such as Enter, Tab, Control+A."},
	"option":     {desc: "Option value or label."},
	"options":    {desc: "Several options (multiple select)."},
	"checked":    {desc: "Wanted state (default true)."},
	"paths":      {desc: "Absolute local file paths (at most 20)."},
	"to":         {desc: "Scroll to the top or bottom.", enum: []string{"top", "bottom"}},
	"deltaX":     {desc: "Scroll by px."},
	"deltaY":     {desc: "Scroll by px."},

	"mode": {desc: "full page (default) or viewport.", enum: []string{"full", "viewport"}},
	"clip": {desc: "Rectangle {x, y, width, height} in CSS px of the document."},

	"closeWorkspace": {desc: "Close the workspace's tabs and its window."},
}

// actionDoc documents one action.
type actionDoc struct {
	summary string
}

// actionOrder is the order a model meets the actions in: look, read, act.
var actionOrder = []string{"status", "search", "open", "extract", "inspect", "click", "type", "press", "select", "check", "upload", "scroll", "wait", "screenshot", "close"}

var actionDocs = map[string]actionDoc{
	"status":     {summary: "windows, tabs (tabId, url, title) and workspaces; diagnostics when Chrome is not connected."},
	"search":     {summary: "web search in a visible tab; returns results (kind, title, url, snippet)."},
	"open":       {summary: "load url in a new tab of your workspace's window (or target current, or tabId)."},
	"extract":    {summary: "read the rendered page as markdown, links, headings (optional url, waitFor); long pages continue with offset."},
	"inspect":    {summary: "list interactive elements with a ref for locators."},
	"click":      {summary: "click an element."},
	"type":       {summary: "type value into a field (clear replaces)."},
	"press":      {summary: "press keys, focusing a locator first if given."},
	"select":     {summary: "choose option(s) of a <select>."},
	"check":      {summary: "set a checkbox or radio to checked."},
	"upload":     {summary: "put files (paths) into a file input."},
	"scroll":     {summary: "scroll to top/bottom, to a locator, or by deltaX/deltaY."},
	"wait":       {summary: "wait for load, a locator or urlContains."},
	"screenshot": {summary: "save a JPEG of the page (or viewport, clip): a file path plus a downscaled image."},
	"close":      {summary: "close a tab the bridge opened (tabId) or your workspace (closeWorkspace)."},
}

// toolIntro and toolHow frame the action list in the single tool's
// description.
const (
	toolIntro = "Work in the user's own Chrome, visibly, in the bridge's own windows and tab groups. One call, one action:"
	toolHow   = "Read with extract before acting; inspect when the page structure is unclear. Name an element with one locator: selector, text, role+name, label, placeholder, ref (from inspect) or x+y; nth picks among matches. Page actions use tabId, else the active tab. Give one runId per task so its tabs stay together. Prefer extract to screenshots for reading. Errors carry a code and say what to do."
	// splitHow is appended to the description of a split tool that takes a
	// locator.
	splitHow = " Locate with one of selector, text, role+name, label, placeholder, ref (from inspect) or x+y."
)
