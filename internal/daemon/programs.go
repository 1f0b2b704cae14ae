package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/audit"
	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/settings"
	"github.com/browser-bridge/browser-bridge/internal/slots"
	"github.com/browser-bridge/browser-bridge/internal/staging"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// verbRoute is the browser a client connection's verbs go to when they
// name none: the default browser (the one the user focused last) as the
// connection's first such verb found it, for the rest of the connection.
// A program's tab, group and window IDs are Chrome's IDs in one browser,
// so its verbs must not follow the user's focus to another one midway;
// when that browser goes away they fail naming it.
type verbRoute struct {
	mu sync.Mutex
	b  *slots.Browser
}

// verbBrowser is the browser verb v runs in: the one it names, else the
// connection's (route), found at its first verb.
func (d *Daemon) verbBrowser(ctx context.Context, v protocol.VerbCall, route *verbRoute) (*browser.Pinned, error) {
	if v.Browser != "" {
		b, err := d.named(v.Browser)
		if err != nil {
			return nil, err
		}
		return d.pinned(b), nil
	}
	route.mu.Lock()
	defer route.mu.Unlock()
	if route.b == nil {
		if err := d.link.Ready(ctx); err != nil {
			return nil, err
		}
		info := d.link.Info()
		if !info.Connected { // it went away since Ready
			return nil, protocol.Errorf(protocol.CodeExtensionNotConnected, "the browser's extension disconnected before %s could run; try again", v.Verb)
		}
		b := d.slotOf(info)
		route.b = &b
	}
	return d.pinned(*route.b), nil
}

// handleVerb relays one extension verb for a local program (the public Go
// client, `browser-bridge websocket`). Only protocol.ProgramVerbs pass;
// the Hive-compatible ones run in the extension's program door, where a
// program works only in tabs it created. They run in the browser
// verbBrowser picks; the websocket ones configure the browser they name,
// else the default browser's extension, as `browser-bridge websocket`
// always did. where names the browser the verb went to, for the audit
// trail ("" when it reached none).
func (d *Daemon) handleVerb(ctx context.Context, v protocol.VerbCall, route *verbRoute) (reply protocol.Reply, where string) {
	reply.ID = v.ID
	defer func() {
		if p := recover(); p != nil {
			d.log.Error("panic in verb", "panic", p)
			reply = protocol.Reply{ID: v.ID, Error: protocol.Errorf(protocol.CodeInternal, "internal error (%v); please report it with the daemon log %s", p, d.layout.DaemonLog())}
		}
	}()
	params, err := verbParams(v)
	if err != nil {
		reply.Error = protocol.AsError(err)
		return reply, where
	}
	// Turning the WebSocket off, or asking about it, works while the
	// bridge is off; everything else is refused then.
	if !(v.Verb == "websocket.status" || (v.Verb == "websocket.configure" && !enabling(params))) {
		if off := d.env.Off(); off != nil {
			reply.Error = off
			return reply, where
		}
		if p := settings.Paused(d.layout); p != nil {
			reply.Error = p
			return reply, where
		}
	}
	ctx, cancel := context.WithTimeout(ctx, tool.DefaultDeadline)
	defer cancel()
	var out json.RawMessage
	switch v.Verb {
	case "websocket.configure", "websocket.status":
		var b browser.Caller = d.env.Browser
		var p *browser.Pinned
		if v.Browser != "" {
			p, err = d.verbBrowser(ctx, v, route)
		} else if info := d.link.Info(); info.Connected {
			p = d.pinned(d.slotOf(info)) // the default, named for the audit trail
		}
		if p != nil {
			b, where = p, p.Label()
		}
		if err == nil {
			err = b.Call(ctx, v.Verb, params, &out)
		}
	default:
		cmd := map[string]json.RawMessage{}
		for k, val := range params {
			cmd[k] = val
		}
		cmd["type"], _ = json.Marshal(v.Verb)
		var b *browser.Pinned
		if b, err = d.verbBrowser(ctx, v, route); err == nil {
			where = b.Label()
			err = b.Call(ctx, "program.call", map[string]any{"command": cmd}, &out)
		}
	}
	if err != nil {
		e := protocol.AsError(err)
		if errors.Is(err, context.DeadlineExceeded) {
			e = protocol.Errorf(protocol.CodeTimeout, "%s did not finish within %s; try again", v.Verb, tool.DefaultDeadline)
		}
		reply.Error = e
		return reply, where
	}
	if len(out) == 0 {
		out = json.RawMessage("{}")
	}
	reply.Result = out
	return reply, where
}

// verbParams checks a relayed verb and its params: a known verb, params a
// JSON object, and for websocket.configure a loopback URL.
func verbParams(v protocol.VerbCall) (map[string]json.RawMessage, error) {
	if !slices.Contains(protocol.ProgramVerbs, v.Verb) {
		return nil, protocol.Errorf(protocol.CodeInvalidArgument, "unknown verb %q: a program may use %s", v.Verb, strings.Join(protocol.ProgramVerbs, ", "))
	}
	params := map[string]json.RawMessage{}
	if len(v.Params) > 0 && string(v.Params) != "null" {
		if err := json.Unmarshal(v.Params, &params); err != nil {
			return nil, protocol.Errorf(protocol.CodeInvalidArgument, "the params of %s must be a JSON object", v.Verb)
		}
	}
	if _, ok := params["type"]; ok {
		return nil, protocol.Errorf(protocol.CodeInvalidArgument, "the params of %s may not set type; the verb names it", v.Verb)
	}
	if v.Verb == "websocket.configure" {
		var c protocol.WebSocketConfig
		if err := json.Unmarshal(v.Params, &c); err != nil {
			return nil, protocol.Errorf(protocol.CodeInvalidArgument, "websocket.configure takes {enabled, url, token}: %v", err)
		}
		if c.Enabled {
			if err := CheckWebSocketURL(c.URL); err != nil {
				return nil, err
			}
		}
	}
	return params, nil
}

// enabling reports whether websocket.configure params turn it on.
func enabling(params map[string]json.RawMessage) bool {
	var on bool
	json.Unmarshal(params["enabled"], &on)
	return on
}

// CheckWebSocketURL accepts only ws: and wss: URLs on the loopback
// interface: the transport is a client the extension dials, and it must
// never reach another machine (docs/design.md#wire-protocol). The extension checks again.
func CheckWebSocketURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
		return protocol.Errorf(protocol.CodeInvalidArgument, "websocket url %q must be a ws:// URL such as %s", s, protocol.DefaultWebSocketURL)
	}
	if u.User != nil {
		return protocol.Errorf(protocol.CodeInvalidArgument, "websocket url %q may not carry a user or password; use --token", s)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return protocol.Errorf(protocol.CodeInvalidArgument, "websocket url %q is not on this machine: only loopback hosts (127.0.0.1, localhost, [::1]) are allowed, so the bridge never connects out to the network", s)
}

// answerExtension answers the extension's own requests over its link:
// paths.check, the upload rules applied for a program's
// DOM.setFileInputFiles before the extension lets it through; and
// program.admit and program.done around each command of a WebSocket
// program, so the user's pause and the audit trail hold on that door too.
func (d *Daemon) answerExtension(from browser.Info, typ string, frame []byte) (any, error) {
	switch typ {
	case protocol.TypeUIState, protocol.TypeUIPause, protocol.TypeUIEvaluate:
		return d.answerUI(from, typ, frame)
	case protocol.TypeUIReplay:
		return d.replays.uiReplay(d.reg.For(from.Instance), frame)
	case protocol.TypePathsCheck:
		var req protocol.PathsCheck
		if err := json.Unmarshal(frame, &req); err != nil {
			return nil, protocol.Errorf(protocol.CodeInvalidArgument, "paths.check takes {paths}: %v", err)
		}
		if p := settings.Paused(d.layout); p != nil {
			return nil, p
		}
		// Chrome gets private copies of the bytes that were checked; they
		// stay until staging.Keep has passed, since Chrome reads a file
		// only when the page does.
		checked, _, err := staging.For(d.layout).Stage(req.Paths)
		if err != nil {
			return nil, err
		}
		d.audit.Write(audit.Entry{Session: "extension", Door: "websocket", Action: "paths.check", Browser: d.nameOf(from), Params: audit.Redact(map[string]any{"paths": req.Paths}), Code: "ok"})
		return protocol.PathsChecked{Paths: checked}, nil
	case protocol.TypeProgramAdmit, protocol.TypeProgramDone:
		var c protocol.ProgramCommand
		if err := json.Unmarshal(frame, &c); err != nil {
			return nil, protocol.Errorf(protocol.CodeInvalidArgument, "%s takes {owner, verb, …}: %v", typ, err)
		}
		if typ == protocol.TypeProgramAdmit {
			if off := d.env.Off(); off != nil {
				return nil, off
			}
			if p := settings.Paused(d.layout); p != nil {
				d.audit.Write(audit.Entry{Session: c.Owner, Door: "websocket", Action: c.Verb, Browser: d.nameOf(from), Code: p.Code})
				return nil, p
			}
			return protocol.OKResult{OK: true}, nil
		}
		e := audit.Entry{Session: c.Owner, Door: "websocket", Action: c.Verb, Browser: d.nameOf(from), TabID: c.TabID, Code: c.Code, Ms: c.Ms,
			Time: time.Now().Add(-time.Duration(c.Ms) * time.Millisecond)}
		if c.Method != "" {
			e.Params = map[string]any{"method": c.Method}
		}
		d.audit.Write(e)
		return protocol.OKResult{OK: true}, nil
	}
	return nil, protocol.Errorf(protocol.CodeInvalidArgument, "the daemon does not answer %q requests", typ)
}
