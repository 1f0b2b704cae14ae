package protocol

// TabEmulateParams: tab.emulate sets emulations of the tab's page through
// the debugger and keeps them (the debugger stays attached to the tab,
// and they are set again whenever it attaches anew) until Reset or the
// tab closes. A field left out keeps what is set; Reset undoes all of
// them, viewport's size too.
type TabEmulateParams struct {
	TabID  int             `json:"tabId"`
	Device *EmulatedDevice `json:"device,omitempty"`
	// CPUThrottling is the slow-down rate (1: none).
	CPUThrottling float64          `json:"cpuThrottling,omitempty"`
	Network       *EmulatedNetwork `json:"network,omitempty"`
	// ColorScheme and ReducedMotion are the values of the media
	// features prefers-color-scheme and prefers-reduced-motion.
	ColorScheme   string `json:"colorScheme,omitempty"`
	ReducedMotion string `json:"reducedMotion,omitempty"`
	Reset         bool   `json:"reset,omitempty"`
}

// EmulatedDevice is a device's metrics, touch screen and user agent
// ("Chrome/VERSION" in it stands for the browser's own version; empty:
// the browser's own user agent).
type EmulatedDevice struct {
	Name              string  `json:"name"`
	Width             int     `json:"width"`
	Height            int     `json:"height"`
	DeviceScaleFactor float64 `json:"deviceScaleFactor"`
	Mobile            bool    `json:"mobile,omitempty"`
	Touch             bool    `json:"touch,omitempty"`
	UserAgent         string  `json:"userAgent,omitempty"`
	Platform          string  `json:"platform,omitempty"`
}

// EmulatedNetwork is a network condition: Offline, or latency and
// throughput each way (0: not limited). Name "none" lifts it.
type EmulatedNetwork struct {
	Name         string  `json:"name"`
	Offline      bool    `json:"offline,omitempty"`
	LatencyMs    float64 `json:"latencyMs,omitempty"`
	DownloadKbps float64 `json:"downloadKbps,omitempty"`
	UploadKbps   float64 `json:"uploadKbps,omitempty"`
}

// TabEmulateResult is what is emulated afterwards: the size the page is
// laid out at, and the pixel ratio, touch support and user agent the
// page sees (measured in the page), and the conditions set.
type TabEmulateResult struct {
	Width             int              `json:"width"`
	Height            int              `json:"height"`
	DeviceScaleFactor float64          `json:"deviceScaleFactor"`
	Touch             bool             `json:"touch,omitempty"`
	UserAgent         string           `json:"userAgent,omitempty"`
	Device            *EmulatedDevice  `json:"device,omitempty"`
	Viewport          bool             `json:"viewport,omitempty"` // a viewport size is set (viewport)
	CPUThrottling     float64          `json:"cpuThrottling,omitempty"`
	Network           *EmulatedNetwork `json:"network,omitempty"`
	ColorScheme       string           `json:"colorScheme,omitempty"`
	ReducedMotion     string           `json:"reducedMotion,omitempty"`
}
