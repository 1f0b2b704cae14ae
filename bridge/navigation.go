package bridge

import (
	"context"

	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// The navigation actions (SPEC §2b): a tab's history, the tab shown, the
// size its page is laid out at, and the page printed.

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

// ReloadParams are reload's parameters.
type ReloadParams struct {
	Target
	// BypassCache reloads without the browser's cache.
	BypassCache bool   `json:"bypassCache,omitempty"`
	Dialog      string `json:"dialog,omitempty"`
}

// Reload reloads the tab's page and waits for its load.
func (c *Client) Reload(ctx context.Context, p ReloadParams) (*NavResult, error) {
	return do[NavResult](ctx, c, "reload", p)
}

// HistoryParams are back's and forward's parameters.
type HistoryParams struct {
	Target
	Dialog string `json:"dialog,omitempty"`
}

// Back goes one step back in the tab's history and waits for the load;
// with no page to go back to it is ErrInvalidArgument.
func (c *Client) Back(ctx context.Context, p HistoryParams) (*NavResult, error) {
	return do[NavResult](ctx, c, "back", p)
}

// Forward goes one step forward in the tab's history, as Back.
func (c *Client) Forward(ctx context.Context, p HistoryParams) (*NavResult, error) {
	return do[NavResult](ctx, c, "forward", p)
}

// ActivateParams are activate's parameters.
type ActivateParams struct {
	Target
}

// Activate makes the tab the active one of its window without focusing
// the window.
func (c *Client) Activate(ctx context.Context, p ActivateParams) (*ActivateResult, error) {
	return do[ActivateResult](ctx, c, "activate", p)
}

// ViewportParams are viewport's parameters: Width and Height (CSS px,
// 200 to 4000), optionally DeviceScaleFactor and Mobile; or Reset alone.
type ViewportParams struct {
	Target
	Width             int      `json:"width,omitempty"`
	Height            int      `json:"height,omitempty"`
	DeviceScaleFactor *float64 `json:"deviceScaleFactor,omitempty"`
	Mobile            bool     `json:"mobile,omitempty"`
	Reset             bool     `json:"reset,omitempty"`
}

// Viewport lays the tab's page out at a size until Reset or the tab
// closes; the debugger stays attached to the tab meanwhile.
func (c *Client) Viewport(ctx context.Context, p ViewportParams) (*ViewportResult, error) {
	return do[ViewportResult](ctx, c, "viewport", p)
}

// PDFParams are pdf's parameters.
type PDFParams struct {
	Target
	Landscape       bool   `json:"landscape,omitempty"`
	PrintBackground bool   `json:"printBackground,omitempty"`
	Dialog          string `json:"dialog,omitempty"`
}

// PDF prints the tab's page to a PDF file.
func (c *Client) PDF(ctx context.Context, p PDFParams) (*PDFResult, error) {
	return do[PDFResult](ctx, c, "pdf", p)
}
