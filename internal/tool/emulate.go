package tool

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// emulate (docs/reference.md, "emulate"): a device, CPU and network
// conditions and media features for a tab's page, held until reset or
// the tab closes, as viewport's size is.
func init() {
	declare(Spec{
		Name:        "emulate",
		After:       "viewport",
		Result:      EmulateResult{},
		Summary:     "a device, slow CPU/network, color scheme, motion; until reset.",
		Doc:         "emulates a Device preset (size, scale, touch and user agent), CPUThrottling, Network conditions, ColorScheme and ReducedMotion in the tab until Reset or the tab closes; each call changes what it names and keeps the rest. The debugger stays attached to the tab meanwhile.",
		Kind:        KindNavigate,
		Params:      []string{"device", "cpuThrottling", "network", "colorScheme", "reducedMotion", "reset"},
		Needs:       [][]string{{"device", "cpuThrottling", "network", "colorScheme", "reducedMotion", "reset"}},
		ChangesPage: true,
	})
}

// Emulation is emulate's parameters; Input embeds it. Reset is
// Navigation's, shared with viewport.
type Emulation struct {
	Device        string   `json:"device,omitempty" jsonschema:"emulate: iphone-15, pixel-8, galaxy-s24, ipad, laptop, desktop."`
	CPUThrottling *float64 `json:"cpuThrottling,omitempty" jsonschema:"emulate: CPU slowdown, 1-20."`
	// Network is a preset's name (a string) or custom conditions (an
	// object {latencyMs, downloadKbps, uploadKbps}); EmulatedNetwork
	// reads it.
	Network       any    `json:"network,omitempty" jsonschema:"emulate: offline, slow-3g, fast-3g, slow-4g, none or {latencyMs, downloadKbps, uploadKbps}."`
	ColorScheme   string `json:"colorScheme,omitempty" jsonschema:"emulate: light or dark."`
	ReducedMotion string `json:"reducedMotion,omitempty" jsonschema:"emulate: reduce or no-preference."`
}

// Device is a device preset: what a page of it is laid out at and sees.
type Device struct {
	Name              string  `json:"name"`
	Width             int     `json:"width"`
	Height            int     `json:"height"`
	DeviceScaleFactor float64 `json:"deviceScaleFactor"`
	Mobile            bool    `json:"mobile,omitempty"`
	Touch             bool    `json:"touch,omitempty"`
	// UserAgent is the user agent the page and its requests get; empty:
	// the browser's own. "Chrome/VERSION" in it is replaced by the
	// browser's own version.
	UserAgent string `json:"userAgent,omitempty"`
	// Platform is navigator.platform with the user agent.
	Platform string `json:"platform,omitempty"`
}

// Devices are the presets of emulate's device parameter; the table in
// docs/reference.md ("Device presets") lists the same.
var Devices = []Device{
	{Name: "iphone-15", Width: 393, Height: 852, DeviceScaleFactor: 3, Mobile: true, Touch: true, Platform: "iPhone",
		UserAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"},
	{Name: "pixel-8", Width: 412, Height: 915, DeviceScaleFactor: 2.625, Mobile: true, Touch: true, Platform: "Linux armv8l",
		UserAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/VERSION Mobile Safari/537.36"},
	{Name: "galaxy-s24", Width: 360, Height: 780, DeviceScaleFactor: 3, Mobile: true, Touch: true, Platform: "Linux armv8l",
		UserAgent: "Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/VERSION Mobile Safari/537.36"},
	{Name: "ipad", Width: 820, Height: 1180, DeviceScaleFactor: 2, Mobile: true, Touch: true, Platform: "iPad",
		UserAgent: "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"},
	{Name: "laptop", Width: 1440, Height: 900, DeviceScaleFactor: 2},
	{Name: "desktop", Width: 1920, Height: 1080, DeviceScaleFactor: 1},
}

// DeviceNamed is the preset of that name.
func DeviceNamed(name string) (Device, bool) {
	i := slices.IndexFunc(Devices, func(d Device) bool { return d.Name == name })
	if i < 0 {
		return Device{}, false
	}
	return Devices[i], true
}

// NetworkCondition is a network condition: offline, or a round trip's latency
// and the throughput each way (0: not limited).
type NetworkCondition struct {
	// Name is the preset's name, or "custom".
	Name         string  `json:"name"`
	Offline      bool    `json:"offline,omitempty"`
	LatencyMs    float64 `json:"latencyMs,omitempty"`
	DownloadKbps float64 `json:"downloadKbps,omitempty"`
	UploadKbps   float64 `json:"uploadKbps,omitempty"`
}

// NetworkPresets are the named conditions of emulate's network
// parameter: Chrome DevTools' own throttling presets. "none" lifts the
// emulation.
var NetworkPresets = []NetworkCondition{
	{Name: "offline", Offline: true},
	{Name: "slow-3g", LatencyMs: 2000, DownloadKbps: 400, UploadKbps: 400},
	{Name: "fast-3g", LatencyMs: 562.5, DownloadKbps: 1440, UploadKbps: 675},
	{Name: "slow-4g", LatencyMs: 165, DownloadKbps: 8100, UploadKbps: 1350},
	{Name: "none"},
}

// Bounds of emulate's values.
const (
	MaxCPUThrottling = 20
	maxLatencyMs     = 60_000
	maxKbps          = 10_000_000
)

// CheckEmulate checks emulate's parameters: each value one of its
// choices or within its bounds, reset alone. A wrong value's error lists
// the valid ones.
func (in *Input) CheckEmulate() error {
	e := in.Emulation
	if in.Reset {
		if e.Device != "" || e.CPUThrottling != nil || e.Network != nil || e.ColorScheme != "" || e.ReducedMotion != "" {
			return invalid("reset: true undoes every emulation of the tab; give it alone, or the emulations to set without it")
		}
		return nil
	}
	if e.Device != "" {
		if _, ok := DeviceNamed(e.Device); !ok {
			return invalid("unknown device %q: use one of %s (docs/reference.md lists their sizes)", Echo(e.Device), strings.Join(deviceNames(), ", "))
		}
	}
	if r := e.CPUThrottling; r != nil && (math.IsNaN(*r) || *r < 1 || *r > MaxCPUThrottling) {
		return invalid("cpuThrottling must be a slow-down rate between 1 (none) and %d (4 is a mid-range phone)", MaxCPUThrottling)
	}
	if e.Network != nil {
		if _, err := EmulatedNetwork(e.Network); err != nil {
			return err
		}
	}
	if err := oneOf("colorScheme", e.ColorScheme, "light", "dark"); err != nil {
		return err
	}
	return oneOf("reducedMotion", e.ReducedMotion, "reduce", "no-preference")
}

// oneOf refuses a value given that is none of the choices.
func oneOf(name, v string, choices ...string) error {
	if v == "" || slices.Contains(choices, v) {
		return nil
	}
	return invalid("%s must be %s (got %q)", name, Alternatives(quoted(choices)), Echo(v))
}

func quoted(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

func deviceNames() []string {
	out := make([]string, len(Devices))
	for i, d := range Devices {
		out[i] = d.Name
	}
	return out
}

// EmulatedNetwork reads emulate's network parameter: a preset's name,
// or an object {latencyMs, downloadKbps, uploadKbps} (each optional, at
// least one given; a throughput of 0 is not limited).
func EmulatedNetwork(v any) (NetworkCondition, error) {
	var names []string
	for _, p := range NetworkPresets {
		names = append(names, fmt.Sprintf("%q", p.Name))
	}
	bad := invalid("network must be one of %s, or an object {latencyMs, downloadKbps, uploadKbps}", strings.Join(names, ", "))
	switch v := v.(type) {
	case string:
		for _, p := range NetworkPresets {
			if p.Name == v {
				return p, nil
			}
		}
		return NetworkCondition{}, invalid("unknown network %q: use one of %s, or an object {latencyMs, downloadKbps, uploadKbps}", Echo(v), strings.Join(names, ", "))
	case map[string]any:
		if len(v) == 0 {
			return NetworkCondition{}, bad
		}
		n := NetworkCondition{Name: "custom"}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			f, ok := v[k].(float64)
			var dst *float64
			limit := float64(maxKbps)
			switch k {
			case "latencyMs":
				dst, limit = &n.LatencyMs, maxLatencyMs
			case "downloadKbps":
				dst = &n.DownloadKbps
			case "uploadKbps":
				dst = &n.UploadKbps
			default:
				return NetworkCondition{}, invalid("network has no field %q: its fields are latencyMs, downloadKbps and uploadKbps", Echo(k))
			}
			if !ok || math.IsNaN(f) || f < 0 || f > limit {
				return NetworkCondition{}, invalid("network.%s must be a number from 0 to %.0f", k, limit)
			}
			*dst = f
		}
		return n, nil
	}
	return NetworkCondition{}, bad
}

// EmulateResult is what is emulated in the tab once the call is done:
// the device (or viewport) as the page sees it, and the conditions set.
type EmulateResult struct {
	Page
	// Device is the preset in force, if one is.
	Device            string  `json:"device,omitempty"`
	Width             int     `json:"width"`
	Height            int     `json:"height"`
	DeviceScaleFactor float64 `json:"deviceScaleFactor,omitempty" jsonschema:"Device pixels per CSS pixel, as the page sees it (devicePixelRatio)."`
	Mobile            bool    `json:"mobile,omitempty"`
	Touch             bool    `json:"touch,omitempty" jsonschema:"The page sees a touch screen: touch events and a coarse pointer."`
	// UserAgent is navigator.userAgent as the page sees it.
	UserAgent     string            `json:"userAgent,omitempty"`
	CPUThrottling float64           `json:"cpuThrottling,omitempty"`
	Network       *NetworkCondition `json:"network,omitempty"`
	ColorScheme   string            `json:"colorScheme,omitempty"`
	ReducedMotion string            `json:"reducedMotion,omitempty"`
	// Emulated says something is emulated (false after reset).
	Emulated bool `json:"emulated"`
	Outcome
}
