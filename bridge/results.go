package bridge

import "github.com/browser-bridge/browser-bridge/internal/tool"

// The results of the actions, and the locator the parameters share, are
// the contract's own types (internal/tool), re-exported here under stable
// names: what the daemon sends and what a program decodes are one
// declaration, so a field the engine adds is a field of the client at once
// (TestResultsAreTheContracts checks every action's method against it).
// Their json names are the tool's (docs/design.md#actions).

// Locator names the element a page action targets: exactly one of
// Selector, Text, Role (with Name), Label, Placeholder, Ref (from
// Inspect), or X and Y (in Coordinates "viewport", the default, or
// "document"). FrameID and Nth narrow it (a pointer: new(0) is the first
// match, nil is "the first visible one"); Exact requires equal text
// instead of a case-insensitive substring.
type Locator = tool.Locator

// WaitFor is Extract's wait condition: one element locator (not a point),
// or URLContains.
type WaitFor = tool.WaitFor

// Clip is a screenshot rectangle in CSS pixels of the document.
type Clip = tool.Clip

// Status is what status reports. Connected: the extension, the active
// tab, every window and the bridge's workspaces, and every connected
// browser (Browsers; the rest describes the one marked Shown). Not
// connected: Reason and Diagnostics (every link of the chain). Disabled
// says why the bridge is turned off; Problem is set when the extension
// cannot serve (ErrVersionMismatch).
type Status = tool.StatusResult

// Problem is an error Status reports instead of failing.
type Problem = tool.Problem

// Browser is one connected browser (an extension instance in one browser
// profile). Default: a call that names no browser goes to it.
type Browser = tool.Browser

// Window is a browser window and its tabs, as Status lists it.
type Window = tool.Window

// StatusTab is a tab as Status lists it; Redacted marks a user's
// incognito tab whose URL and title are withheld.
type StatusTab = tool.StatusTab

// ActiveTab is the active tab of Chrome's current window.
type ActiveTab = tool.ActiveTab

// Workspace is one of the bridge's workspaces: its window, tab group and
// tabs.
type Workspace = tool.Workspace

// SearchResult is the results page and what it lists.
type SearchResult = tool.SearchResult

// SearchHit is one result of a search; Kind is organic, ad, featured,
// people_also_ask, video, news, image or related_search.
type SearchHit = tool.Hit

// OpenResult is the tab that was opened; LoadError is the network error
// when the page could not be loaded.
type OpenResult = tool.OpenResult

// ExtractResult is the rendered, visible page. When the page is larger
// than MaxChars, NextOffset is where the next Extract continues (nil at
// the end).
type ExtractResult = tool.ExtractResult

// Reader is the main content of a page.
type Reader = tool.Reader

// Link is a visible link.
type Link = tool.Link

// Heading is a visible heading.
type Heading = tool.Heading

// Frame says what became of one frame of the page: read in place, or why
// not.
type Frame = tool.FrameInfo

// InspectResult lists a page's interactive elements; NextOffset as in
// ExtractResult.
type InspectResult = tool.InspectResult

// Viewport is a frame's viewport in CSS pixels.
type Viewport = tool.Viewport

// Control is one interactive element that Inspect lists; its Ref is a
// locator (Locator{Ref: …}). Rect is [x, y, width, height]; Visible and
// Enabled are sent only when false (nil: true).
type Control = tool.Control

// WaitResult says what the wait found.
type WaitResult = tool.WaitResult

// Page is the tab a result concerns: its ID, URL and title.
type Page = tool.Page

// Outcome is what a page action set off besides its own work: a
// navigation, the dialog it answered, the tabs the page opened, the
// files it downloaded, how long its input waited for the target
// (WaitedMs, WaitedFor), and warnings. Every page action's result embeds
// it.
type Outcome = tool.Outcome

// ActResult is what a page action returns: the tab afterwards, the
// element it acted on, and what the action set off.
type ActResult = tool.ActResult

// Element is the element an action located.
type Element = tool.Element

// Rect is a rectangle in CSS pixels.
type Rect = tool.Rect

// Dialog is a JavaScript dialog an action opened, and how the bridge
// answered it.
type Dialog = tool.Dialog

// OpenedTab is a tab the page opened during an action (a link to _blank,
// a pop-up); the bridge takes it as its own.
type OpenedTab = tool.Tab

// HoverResult adds what is under the pointer once the page has reacted.
type HoverResult = tool.HoverResult

// Match is an element as the page's locate script describes it.
type Match = tool.Match

// DragResult adds what was dragged and where it was dropped.
type DragResult = tool.DragResult

// TypeResult adds the field's value afterwards (unless it is hidden, as a
// password's is, or cannot be read: ValueUnreadable says why), how the
// text went in (Inserted: typed, pasted, set or dom), the code editor
// typed into, and how long the action waited for the page to react
// (SettledMs).
type TypeResult = tool.TypeResult

// SelectResult adds the options selected afterwards.
type SelectResult = tool.SelectResult

// CheckResult adds the final state.
type CheckResult = tool.CheckResult

// UploadResult adds the files the input holds.
type UploadResult = tool.UploadResult

// File is a file a file input holds: its name and size, never its content.
type File = tool.File

// ScrollResult adds the scroll position afterwards.
type ScrollResult = tool.ScrollResult

// ScreenshotResult is the JPEG file the daemon wrote (mode 0600, on the
// machine of the browser) and its size in pixels and bytes.
type ScreenshotResult = tool.ScreenshotResult

// Download is a file a click or press of the bridge downloaded. Path is
// where it is: in the bridge's downloads folder (SavedBy "bridge", moved
// there once complete) or where the browser saved it (SavedBy "browser",
// Note says why it stayed). State is done, failed or in_progress.
type Download = tool.Download

// DownloadsResult lists recent downloads, newest first, and the bridge's
// downloads folder.
type DownloadsResult = tool.DownloadsResult

// ConsoleResult is a tab's console messages and page errors, oldest
// first; NextSince continues after them.
type ConsoleResult = tool.ConsoleResult

// ConsoleMessage is one console message or page error.
type ConsoleMessage = tool.ConsoleMessage

// NetworkResult lists a tab's requests, or one in full (Request).
type NetworkResult = tool.NetworkResult

// Request is one recorded request; RequestDetail one in full, with its
// headers and bodies (credentials redacted).
type (
	Request       = tool.Request
	RequestDetail = tool.RequestDetail
)

// CloseResult lists what was closed.
type CloseResult = tool.CloseResult

// HandoffResult is what the user chose — Outcome "done", "cancelled" or
// "timeout" — and the tab as it is afterwards.
type HandoffResult = tool.HandoffResult

// EvaluateResult is an expression's value as JSON (Value, or ValueCut when
// it was longer than maxChars) and its JavaScript Type.
type EvaluateResult = tool.EvaluateResult

// FillField is one field of fill: a locator and one of Value, Option or
// Options, or Checked.
type FillField = tool.FillField

// FillResult is the tab after a fill and each field's outcome.
type FillResult = tool.FillResult

// FilledField is what one field of fill became.
type FilledField = tool.FilledField

// FindResult is where a text is on the page: Count matches, the first of
// them in Matches.
type FindResult = tool.FindResult

// Found is one match of find; its Ref is a locator.
type Found = tool.Found

// NavResult is Reload's, Back's and Forward's answer: the tab once the
// page it went to has loaded (Warnings say when it had not).
type NavResult = tool.NavResult

// ActivateResult is the tab Activate showed, and its window.
type ActivateResult = tool.ActivateResult

// ViewportResult is the size the tab's page is laid out at after
// Viewport.
type ViewportResult = tool.ViewportResult

// PDFResult is the PDF file PDF wrote: Path (mode 0600, in the bridge's
// screenshots folder), Bytes, Pages.
type PDFResult = tool.PDFResult
