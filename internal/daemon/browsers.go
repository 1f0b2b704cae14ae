package daemon

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/actions"
	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/slots"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// Several browsers may be connected at once (docs/design.md#workspaces), each with its own
// extension instance and its own tab IDs. This file is the one place
// where a call picks its browser and where tab IDs change between the
// caller's (qualified by the browser's slot, package slots) and Chrome's:
// below it, the engine works in one browser with Chrome's own IDs.

// route is the browser a call works in.
type route struct {
	b    actions.Browser // the Link pinned to that browser, or the Link itself while none is connected
	slot int
}

// pinned is the Link pinned to browser b.
func (d *Daemon) pinned(b slots.Browser) *browser.Pinned {
	return d.link.Pin(b.Instance, describe(b))
}

// describe names a browser in messages: "1 (Chromium #1)".
func describe(b slots.Browser) string {
	return strconv.Itoa(b.Slot) + " (" + b.Label + ")"
}

// named is the browser a call or a verb names by label or slot.
func (d *Daemon) named(name string) (slots.Browser, error) {
	b, ok := d.slots.Find(name)
	if !ok {
		return slots.Browser{}, protocol.Errorf(protocol.CodeInvalidArgument,
			"no browser %q has connected to this daemon: pass a label or slot number that status lists under browsers, or leave browser out", name)
	}
	return b, nil
}

// nameOf names a connected browser as describe does, for the audit trail.
func (d *Daemon) nameOf(info browser.Info) string {
	return describe(d.slotOf(info))
}

// slotOf is the slot of a connected browser, given on first sight.
func (d *Daemon) slotOf(info browser.Info) slots.Browser {
	b, err := d.slots.Assign(info.Browser, info.Name)
	if err != nil {
		d.log.Warn("numbering a browser", "err", err)
	}
	return b
}

// route picks the browser of a call: the one its tabId names, else its
// browser parameter, else the default (the browser the user focused last,
// see browser.Link). It returns in with Chrome's own tab ID. A default
// call first waits (within ctx) for a browser to connect, as every call
// did before there were several.
func (d *Daemon) route(ctx context.Context, in *tool.Input) (*tool.Input, route, error) {
	var named *slots.Browser
	if in.Browser != "" {
		b, err := d.named(in.Browser)
		if err != nil {
			return nil, route{}, err
		}
		named = &b
	}
	if in.TabID != nil {
		slot, raw := slots.Split(*in.TabID)
		b, ok := d.slots.Slot(slot)
		if !ok {
			// Checks that come before the browser (upload's paths) still
			// come first; the browser's first verb fails.
			return in, route{b: nowhere{protocol.Errorf(protocol.CodeTabNotFound,
				"tab %d would be in browser %d, which has never connected: use a tabId from status, open or search", *in.TabID, slot)}}, nil
		}
		if named != nil && named.Slot != slot {
			return nil, route{}, protocol.Errorf(protocol.CodeInvalidArgument,
				"tabId %d is a tab of browser %s, but browser says %s: leave one of them out", *in.TabID, describe(b), describe(*named))
		}
		named = &b
		c := *in
		c.TabID = &raw
		in = &c
	}
	if named != nil {
		return in, route{b: d.pinned(*named), slot: named.Slot}, nil
	}
	if in.Action != "status" {
		if err := d.link.Ready(ctx); err != nil {
			return nil, route{}, err
		}
	} else if wait := actions.StartupGrace - time.Since(d.started); wait > 0 {
		d.link.WaitConnected(ctx, wait)
	}
	info := d.link.Info()
	if !info.Connected {
		return in, route{b: d.link}, nil // status then says why
	}
	b := d.slotOf(info)
	return in, route{b: d.pinned(b), slot: b.Slot}, nil
}

// nowhere is the browser of a tab ID whose slot no browser has: every
// verb fails with err.
type nowhere struct{ err error }

func (n nowhere) Call(context.Context, string, any, any) error    { return n.err }
func (nowhere) Info() browser.Info                                { return browser.Info{} }
func (nowhere) WaitConnected(context.Context, time.Duration) bool { return false }

// qualify turns the tab IDs of a result into the caller's: the browser's
// slot goes in front of Chrome's own ID (package slots). Results hold
// their tab IDs in fields of type tool.TabID, which is how they are found;
// nothing is parsed back. The first browser's IDs stay as Chrome has them.
func (rt route) qualify(res any) any {
	if rt.slot != 0 && res != nil {
		tool.QualifyTabs(res, rt.show)
	}
	return res
}

// show is the caller's ID of the browser's tab id.
func (rt route) show(id int) int { return slots.Qualify(rt.slot, id) }

// qualifyError names the tabs of err's message as the caller does
// ("tab 10555482403", not Chrome's "tab 555482403"): an error made with
// protocol.Errorf keeps the tabs it names (protocol.Tab) as values.
func (rt route) qualifyError(err error) error {
	var e *protocol.Error
	if rt.slot == 0 || !errors.As(err, &e) {
		return err
	}
	return e.ShowTabs(rt.show)
}

// browsersFor is status's list of the connected browsers; shown is the
// one whose windows and tabs status lists.
func (d *Daemon) browsersFor(shown string) []tool.Browser {
	out := []tool.Browser{}
	for _, info := range d.link.Browsers() {
		b := d.slotOf(info)
		out = append(out, tool.Browser{Slot: b.Slot, Label: b.Label, Name: info.Name, Instance: info.Browser, Version: info.Version,
			UserAgent: info.UserAgent, ConnectedAt: info.ConnectedAt, FocusedAt: info.FocusedAt, Default: info.Default,
			Shown: info.Browser == shown})
	}
	return out
}
