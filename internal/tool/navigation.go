package tool

import "math"

// The navigation family (docs/design.md#actions): a tab's history, which tab of its
// window is shown, the size its page is laid out at, and the page printed.
func init() {
	declare(
		Spec{
			Name:        "reload",
			After:       "close",
			Result:      NavResult{},
			Summary:     "reload, wait for the load.",
			Doc:         "reloads the tab's page and waits for its load.",
			Kind:        KindNavigate,
			Params:      []string{"bypassCache", "dialog"},
			ChangesPage: true,
		},
		Spec{
			Name:        "back",
			After:       "reload",
			Result:      NavResult{},
			Summary:     "go back, wait for the load.",
			Doc:         "goes one step back in the tab's history and waits for the load; with no page to go back to it is ErrInvalidArgument.",
			Kind:        KindNavigate,
			Params:      []string{"dialog"},
			ChangesPage: true,
		},
		Spec{
			Name:        "forward",
			After:       "back",
			Result:      NavResult{},
			Summary:     "go forward, as back.",
			Doc:         "goes one step forward in the tab's history, as Back.",
			Kind:        KindNavigate,
			Params:      []string{"dialog"},
			ChangesPage: true,
		},
		Spec{
			Name:    "activate",
			After:   "forward",
			Result:  ActivateResult{},
			Summary: "show the tab, unfocused.",
			Doc:     "makes the tab the active one of its window without focusing the window.",
			Kind:    KindNavigate,
		},
		Spec{
			Name:        "viewport",
			After:       "activate",
			Result:      ViewportResult{},
			Summary:     "lay out at width×height until reset.",
			Doc:         "lays the tab's page out at Width×Height (CSS px, 200 to 4000, optionally with DeviceScaleFactor and Mobile) until Reset or the tab closes; the debugger stays attached to the tab meanwhile.",
			Kind:        KindNavigate,
			Params:      []string{"width", "height", "deviceScaleFactor", "mobile", "reset"},
			Needs:       [][]string{{"width", "reset"}},
			ChangesPage: true,
		},
		Spec{
			Name:    "pdf",
			After:   "viewport",
			Result:  PDFResult{},
			Summary: "print to a PDF file.",
			Doc:     "prints the tab's page to a PDF file.",
			Kind:    KindRead,
			Params:  []string{"landscape", "printBackground", "dialog"},
		},
	)
}

// Navigation is the parameters of the navigation family; Input embeds it,
// so they are top-level parameters of the tool.
type Navigation struct {
	BypassCache       bool     `json:"bypassCache,omitempty" jsonschema:"reload: skip the cache."`
	Width             int      `json:"width,omitempty" jsonschema:"viewport: CSS px, 200-4000."`
	Height            int      `json:"height,omitempty" jsonschema:"viewport: CSS px, as width."`
	DeviceScaleFactor *float64 `json:"deviceScaleFactor,omitempty" jsonschema:"viewport: pixel ratio, up to 4."`
	Mobile            bool     `json:"mobile,omitempty" jsonschema:"viewport: a phone, with touch."`
	Reset             bool     `json:"reset,omitempty" jsonschema:"viewport, emulate: undo them."`
	Landscape         bool     `json:"landscape,omitempty" jsonschema:"pdf: landscape orientation."`
	PrintBackground   bool     `json:"printBackground,omitempty" jsonschema:"pdf: print backgrounds too."`
}

// Bounds of viewport's size (CSS px) and scale.
const (
	MinViewport = 200
	MaxViewport = 4000
	MaxScale    = 4
)

// CheckViewport checks viewport's parameters: a size within bounds, or
// reset alone.
func (n Navigation) CheckViewport() error {
	if n.Reset {
		if n.Width != 0 || n.Height != 0 || n.DeviceScaleFactor != nil || n.Mobile {
			return invalid("reset: true clears the override; give it alone, or width and height without it")
		}
		return nil
	}
	if n.Width < MinViewport || n.Width > MaxViewport || n.Height < MinViewport || n.Height > MaxViewport {
		return invalid("width and height must both be given, each between %d and %d CSS pixels (got %d×%d)", MinViewport, MaxViewport, n.Width, n.Height)
	}
	if s := n.DeviceScaleFactor; s != nil && (math.IsNaN(*s) || *s <= 0 || *s > MaxScale) {
		return invalid("deviceScaleFactor must be above 0 and at most %d (1 is a normal screen, 2 a high-density one)", MaxScale)
	}
	return nil
}

// NavResult is reload's, back's and forward's answer: the tab once the
// page it went to has loaded.
type NavResult struct {
	Page
	// LoadError is the network error when the page could not be loaded
	// (the tab shows the browser's error page).
	LoadError string `json:"loadError,omitempty"`
	Outcome
}

// ActivateResult is the tab activate showed, and its window.
type ActivateResult struct {
	Page
	WindowID int `json:"windowId"`
}

// ViewportResult is the size the tab's page is laid out at now: the
// override, or (after reset) the window's own.
type ViewportResult struct {
	Page
	Width             int     `json:"width"`
	Height            int     `json:"height"`
	DeviceScaleFactor float64 `json:"deviceScaleFactor,omitempty" jsonschema:"Device pixels per CSS pixel, as the page sees it (devicePixelRatio)."`
	Mobile            bool    `json:"mobile,omitempty" jsonschema:"The page is laid out as on a phone."`
	// Touch says the page sees a touch screen (touch events, a coarse
	// pointer), as a mobile viewport gives it.
	Touch bool `json:"touch,omitempty" jsonschema:"The page sees a touch screen: touch events and a coarse pointer."`
	// Emulated says an override is set (false after reset).
	Emulated bool `json:"emulated"`
	Outcome
}

// PDFResult is the PDF file pdf wrote.
type PDFResult struct {
	Page
	Path  string `json:"path"`
	Bytes int    `json:"bytes"`
	Pages int    `json:"pages"`
}
