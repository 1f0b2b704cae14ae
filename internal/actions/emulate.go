package actions

import (
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func init() { register("emulate", emulate) }

// emulate sets a device, CPU and network conditions and media features
// in the tab, or undoes them all (docs/reference.md, emulate). The
// extension keeps the debugger attached to the tab while anything is
// emulated (extension/handlers/emulate.js): Chrome drops an emulation
// with the debugging session that set it.
func emulate(r *run) (*tool.EmulateResult, error) {
	in := r.in
	if err := in.CheckEmulate(); err != nil {
		return nil, err
	}
	p := protocol.TabEmulateParams{Reset: in.Reset, ColorScheme: in.ColorScheme, ReducedMotion: in.ReducedMotion}
	if in.Device != "" {
		d, _ := tool.DeviceNamed(in.Device)
		p.Device = &protocol.EmulatedDevice{Name: d.Name, Width: d.Width, Height: d.Height, DeviceScaleFactor: d.DeviceScaleFactor,
			Mobile: d.Mobile, Touch: d.Touch, UserAgent: d.UserAgent, Platform: d.Platform}
	}
	if in.CPUThrottling != nil {
		p.CPUThrottling = *in.CPUThrottling
	}
	if in.Network != nil {
		n, err := tool.EmulatedNetwork(in.Network)
		if err != nil {
			return nil, err
		}
		p.Network = &protocol.EmulatedNetwork{Name: n.Name, Offline: n.Offline, LatencyMs: n.LatencyMs, DownloadKbps: n.DownloadKbps, UploadKbps: n.UploadKbps}
	}
	t, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	// The debugger is attached first, and a dialog left open answered:
	// the emulations go through the debugger.
	if err := r.answerer().answerOpenDialogs(t.TabID); err != nil {
		return nil, err
	}
	p.TabID = t.TabID
	got, err := r.b.TabEmulate(r.ctx, p)
	if err != nil {
		return nil, err
	}
	res := &tool.EmulateResult{Page: pageOf(t), Width: got.Width, Height: got.Height, DeviceScaleFactor: got.DeviceScaleFactor,
		Touch: got.Touch, UserAgent: got.UserAgent, CPUThrottling: got.CPUThrottling, ColorScheme: got.ColorScheme, ReducedMotion: got.ReducedMotion}
	if d := got.Device; d != nil {
		res.Device, res.Mobile = d.Name, d.Mobile
		// The size asked for is the size the page has (the layout
		// viewport the browser reports leaves a scrollbar out).
		res.Width, res.Height = d.Width, d.Height
	}
	if n := got.Network; n != nil {
		res.Network = &tool.NetworkCondition{Name: n.Name, Offline: n.Offline, LatencyMs: n.LatencyMs, DownloadKbps: n.DownloadKbps, UploadKbps: n.UploadKbps}
	}
	res.Emulated = got.Device != nil || got.Viewport || got.CPUThrottling > 0 || got.Network != nil || got.ColorScheme != "" || got.ReducedMotion != ""
	if res.Emulated {
		res.Warnings = append(res.Warnings, "the debugger stays attached to this tab until emulate reset: true (Chrome shows its debugging bar meanwhile)")
	}
	return res, nil
}
