// Package daemon is the broker: one per state folder. It listens on a unix
// socket (never a network port), accepts native hosts and clients that
// present the per-install secret, plugs the hosts into its browser.Link,
// runs the clients' calls under their deadlines, and keeps the owned-tab
// registry.
package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/actions"
	"github.com/browser-bridge/browser-bridge/internal/audit"
	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/ipc"
	"github.com/browser-bridge/browser-bridge/internal/logfile"
	"github.com/browser-bridge/browser-bridge/internal/nmframe"
	"github.com/browser-bridge/browser-bridge/internal/pathcheck"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/policy"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/registry"
	"github.com/browser-bridge/browser-bridge/internal/replay"
	"github.com/browser-bridge/browser-bridge/internal/secret"
	"github.com/browser-bridge/browser-bridge/internal/settings"
	"github.com/browser-bridge/browser-bridge/internal/shots"
	"github.com/browser-bridge/browser-bridge/internal/slots"
	"github.com/browser-bridge/browser-bridge/internal/staging"
	"github.com/browser-bridge/browser-bridge/internal/tool"
	"github.com/browser-bridge/browser-bridge/internal/version"
)

// sweepEvery is how often expired owned-tab entries are dropped and
// expired workspaces closed.
const sweepEvery = 30 * time.Second

// ErrAlreadyRunning means another daemon holds this state folder.
var ErrAlreadyRunning = errors.New("a daemon is already running for this state folder")

// Daemon is the broker.
type Daemon struct {
	layout  paths.Layout
	log     *slog.Logger
	secret  string
	link    *browser.Link
	reg     *registry.Set
	slots   *slots.Table
	started time.Time
	env     *actions.Env
	audit   *audit.Log
	replays *recorder // replay.go
	agents  agentSessions
	// handshakes caps the connections that have not shown the secret
	// yet (a full gate closes the oldest), and drops rate-limits the line
	// each dropped one logs: a flood of idle connections by the same user
	// must neither starve honest clients nor fill the log.
	handshakes *ipc.Gate
	drops      logfile.Every
	stop       context.CancelFunc
	// sweepEvery is how often expired entries are dropped and expired
	// workspaces closed (the constant, unless a test shortens it).
	sweepEvery time.Duration
	// retries holds, per browser and workspace, when the sweep may try
	// again to close an expired workspace whose close failed; only the
	// sweep's goroutine touches it.
	retries map[string]retry
	// Diagnostics is added to status when no extension is connected.
	Diagnostics func() any
}

// New prepares a daemon for layout: private state folder, secret, registry.
func New(layout paths.Layout, log *slog.Logger) (*Daemon, error) {
	sampleHeapFinely()
	if err := paths.EnsurePrivateDir(layout.State); err != nil {
		return nil, err
	}
	reg, err := registry.Open(layout.Registry())
	if err != nil {
		return nil, err
	}
	numbers, err := slots.Open(layout.Browsers())
	if err != nil {
		return nil, err
	}
	d := &Daemon{layout: layout, log: log, link: browser.NewLink(), reg: reg, slots: numbers, started: time.Now(),
		handshakes: ipc.NewGate(ipc.MaxHandshakes), drops: logfile.Every{Interval: time.Second}, sweepEvery: sweepEvery,
		audit: audit.Open(layout, func(err error) { log.Warn("audit trail", "err", err) }), replays: newRecorder(replay.New(layout))}
	d.link.OnHello = d.reconcile
	d.link.OnRequest = d.answerExtension
	d.env = &actions.Env{
		Browser:     d.link,
		Registries:  reg,
		Started:     d.started,
		Screenshots: shots.New(layout.Screenshots()),
		Off:         func() *protocol.Error { return settings.Off(layout) },
		Guard:       d.guard,
		SiteRules:   func() policy.Rules { return siteRules(layout) },
		Paused:      func() *protocol.Error { return settings.Paused(layout) },
		EvaluateOff: func() *protocol.Error { return settings.EvaluateOff(layout) },
		Daemon: func() any {
			m := map[string]any{"pid": os.Getpid(), "version": version.Version, "uptimeSeconds": int(time.Since(d.started).Seconds()), "socket": layout.Socket,
				"goroutines": runtime.NumGoroutine()}
			for k, v := range memoryStatus() {
				m[k] = v
			}
			if n := openFDs(); n >= 0 {
				m["fds"] = n
			}
			return m
		},
		Browsers: d.browsersFor,
		Diagnostics: func() any {
			if d.Diagnostics != nil {
				return d.Diagnostics()
			}
			return nil
		},
		// Downloads are moved into the layout's folder, up to the cap the
		// settings say at the time.
		DownloadsFolder: layout.Downloads(),
		DownloadCap: func() int64 {
			if s, err := settings.Load(layout); err == nil {
				return s.DownloadCap()
			}
			return settings.DefaultDownloadMaxBytes
		},
	}
	d.env.SetAskBeforeIrreversible(func() bool { return settings.AskBeforeIrreversible(layout) })
	return d, nil
}

// Run takes the daemon lock, listens, and serves until ctx ends. It removes
// its socket on the way out.
func (d *Daemon) Run(ctx context.Context) error {
	ctx, d.stop = context.WithCancel(ctx)
	defer d.stop()
	defer d.audit.Close()
	lock, err := ipc.Lock(d.layout.DaemonLock(), false)
	if errors.Is(err, ipc.ErrLocked) {
		if b, err := os.ReadFile(d.layout.DaemonLock()); err == nil && len(b) > 0 {
			return fmt.Errorf("%w (pid %s; stop it first to start another)", ErrAlreadyRunning, strings.TrimSpace(string(b)))
		}
		return ErrAlreadyRunning
	}
	if err != nil {
		return err
	}
	defer lock.Close()
	// The lock file names its holder, for the message above.
	lock.Truncate(0)
	lock.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	// The secret is made (or replaced, when others could have read it)
	// under the lock: a second daemon about to fail with "already running"
	// must not replace it under the running one.
	sec, notes, err := secret.Prepare(d.layout)
	if err != nil {
		return err
	}
	for _, n := range notes {
		d.log.Warn(n)
	}
	d.secret = sec
	// Uploads may never take the bridge's own state or staged copies;
	// copies a crashed daemon left are swept.
	pathcheck.DenyFolders(d.layout.State, pathcheck.StagingFolder(d.layout))
	if err := staging.For(d.layout).Sweep(); err != nil {
		d.log.Warn("sweeping staged uploads", "err", err)
	}
	l, err := ipc.Listen(d.layout.Socket)
	if err != nil {
		return err
	}
	defer os.Remove(d.layout.Socket)
	d.log.Info("daemon listening", "socket", d.layout.Socket, "pid", os.Getpid(), "version", version.Version)
	// On shutdown, close the listener and every open connection, so that
	// hosts notice at once and redial the next daemon.
	var (
		mu    sync.Mutex
		conns = map[net.Conn]bool{}
		wg    sync.WaitGroup
	)
	go func() {
		<-ctx.Done()
		l.Close()
		mu.Lock()
		for c := range conns {
			c.Close()
		}
		mu.Unlock()
	}()
	go d.sweep(ctx)
	go d.watchPolicy(ctx)
	go writeHeapProfiles(ctx, d.log)
	// The recorder finishes the step it is on before Run returns: nothing
	// writes to the state folder after the daemon has stopped.
	recorded := make(chan struct{})
	go func() { d.recordSteps(ctx); close(recorded) }()
	defer func() { d.stop(); <-recorded }()
	defer wg.Wait()
	for {
		nc, err := l.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			// Out of file descriptors and the like: wait and go on, as
			// net/http does, rather than let the daemon die.
			if errors.Is(err, net.ErrClosed) {
				return fmt.Errorf("accepting: %w", err)
			}
			d.log.Warn("accept failed; retrying", "err", err)
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(100 * time.Millisecond):
			}
			continue
		}
		// Every connection is admitted; a full gate closes the one that
		// has waited longest, which an honest caller never is.
		release := d.handshakes.Admit(nc)
		accepted := time.Now()
		mu.Lock()
		if ctx.Err() != nil {
			mu.Unlock()
			release()
			nc.Close()
			continue
		}
		conns[nc] = true
		mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.serve(ctx, nc, accepted, release)
			mu.Lock()
			delete(conns, nc)
			mu.Unlock()
		}()
	}
}

func (d *Daemon) sweep(ctx context.Context) {
	t := time.NewTicker(d.sweepEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			d.closeExpired(ctx)
			if gone := d.reg.Sweep(); len(gone) > 0 {
				d.log.Info("owned-tab entries expired", "tabs", gone)
			}
		}
	}
}

// reconcile syncs the registry with the browser after a hello: tabs closed
// while the daemon was away are forgotten.
func (d *Daemon) reconcile(ext browser.Info) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if ext.Mismatch != "" {
		d.log.Warn("extension version mismatch", "extension", ext.Version, "protocol", ext.Protocol)
		return
	}
	if n := d.reg.DropEarlierRuns(ext.Instance); n > 0 {
		d.log.Info("the browser restarted: forgot the tabs of its earlier run", "tabs", n)
	}
	seen := time.Now()
	// The browser gets its slot now, and this hello's browser is the one
	// reconciled, whichever is the default.
	b := d.pinned(d.slotOf(ext))
	s, err := browser.Verbs{Caller: b}.BrowserState(ctx)
	if err != nil {
		d.log.Warn("reconciling registry", "err", err)
	} else {
		reg := d.reg.For(ext.Instance)
		reg.Reconcile(s.Live(), seen)
		tabs, pages := s.Groups()
		reg.FollowGroups(tabs, pages, seen)
	}
	// Pages loaded from now on know their DOM's history from the start,
	// so reading them never waits for no reason (after the reconciliation,
	// whose snapshot must be taken at the hello).
	actions.Hello(ctx, d.env, b)
}

// dropped logs a connection the daemon dropped, at most once a second
// with the count of the ones held back.
func (d *Daemon) dropped(why string, err error) {
	if ok, n := d.drops.Allow(); ok {
		d.log.Warn("dropped a connection", "why", why, "err", err, "suppressed", n)
	}
}

// serve authenticates one connection (accepted at accepted, holding a
// handshake slot that release gives back) and hands it to its role.
func (d *Daemon) serve(ctx context.Context, nc net.Conn, accepted time.Time, release func()) {
	defer nc.Close()
	if err := ipc.CheckPeer(nc); err != nil {
		release()
		d.dropped("another user's process", err)
		return
	}
	// The whole handshake must arrive promptly: a silent or slow peer is
	// dropped at accept time + ConnectTimeout, whatever it sends, or
	// sooner when newer connections need its slot.
	c, auth, err := ipc.ReadAuth(nc, accepted.Add(ipc.ConnectTimeout))
	release()
	if err != nil || !secret.Equal(auth.Secret, d.secret) {
		d.dropped("no valid handshake with the secret", err)
		return
	}
	defer c.Close()
	c.SetLimit(ipc.MaxFrame)
	if err := c.SendJSON(protocol.AuthOK{Type: protocol.TypeAuthOK, DaemonPID: os.Getpid(), Version: version.Version}); err != nil {
		return
	}
	switch auth.Role {
	case protocol.RoleHost:
		d.log.Info("native host connected", "pid", auth.PID)
		d.link.Serve(c)
		d.log.Info("native host disconnected", "pid", auth.PID)
	case protocol.RoleClient:
		session, err := clientSession(auth.Session)
		if err != nil {
			d.log.Warn("refused a client's session name", "err", err)
			refuseClient(c, err)
			return
		}
		if auth.EndsWithConnection {
			d.agents.started(session)
			defer d.agents.ended(session, d.sessionGrace(), func() { d.cleanupSession(session) })
		}
		d.serveClient(ctx, c, session)
	default:
		d.log.Warn("unknown role", "role", auth.Role)
	}
}

// clientSession is the session a client's calls are filed under: the name
// it gave, or session:anonymous. The names the daemon writes for the person
// at the browser ("user": the extension page's pause and resume) and for
// the extension itself ("extension") are not a client's to take, nor is a
// name that reads as one or as another name through an invisible
// character: any program holding the secret could otherwise make its log
// lines read as the user's. Such a name is an error (audit.CheckName).
func clientSession(name string) (string, error) {
	if strings.TrimSpace(name) == "" {
		return "session:anonymous", nil
	}
	if err := audit.CheckName(name); err != nil {
		return "", protocol.Errorf(protocol.CodeInvalidArgument, "this session's name cannot be used: %v; connect under another name", err)
	}
	return name, nil
}

// refuseClient answers every call of a client whose session name was
// refused with why, until it hangs up: the handshake has no error reply,
// and a client must learn what to change rather than wait.
func refuseClient(c *ipc.Conn, why error) {
	for {
		frame, err := c.Recv()
		if err != nil {
			return
		}
		var call protocol.Call
		if json.Unmarshal(frame, &call) != nil || call.ID == "" || call.Type == protocol.TypeCancel {
			continue
		}
		c.SendJSON(protocol.Reply{ID: call.ID, Error: protocol.AsError(why)})
	}
}

// serveClient runs a client's calls, several at a time, each under its own
// deadline, until the client hangs up (which cancels its calls).
func (d *Daemon) serveClient(ctx context.Context, c *ipc.Conn, session string) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	calls := map[string]context.CancelFunc{}
	var verbs verbRoute
	for {
		frame, err := c.Recv()
		if err != nil {
			return
		}
		var call protocol.Call
		if err := json.Unmarshal(frame, &call); err != nil || call.ID == "" {
			d.log.Warn("bad frame from client", "err", err)
			continue
		}
		switch call.Type {
		case protocol.TypeShutdown:
			// A client of another version found this daemon (it starts its
			// own, which hosts redial), or uninstall stops it.
			d.log.Info("shutting down at a client's request")
			d.stop()
			return
		case protocol.TypeCancel:
			mu.Lock()
			if f := calls[call.ID]; f != nil {
				f()
			}
			mu.Unlock()
		case protocol.TypeCall:
			cctx, ccancel := context.WithCancel(ctx)
			mu.Lock()
			calls[call.ID] = ccancel
			mu.Unlock()
			go func() {
				defer func() {
					mu.Lock()
					delete(calls, call.ID)
					mu.Unlock()
					ccancel()
				}()
				progress := func(msg string) {
					c.SendJSON(protocol.Progress{ID: call.ID, Type: protocol.TypeProgress, Message: msg})
				}
				at := time.Now()
				done := d.replays.started(quietKey(session, call.Input))
				reply := d.handleCall(cctx, session, call, progress)
				if err := c.SendJSON(reply); err != nil {
					d.log.Warn("sending reply", "err", err)
					if errors.Is(err, nmframe.ErrTooLarge) {
						// Say so rather than leave the client waiting.
						c.SendJSON(protocol.Reply{ID: call.ID, Error: protocol.Errorf(protocol.CodeInvalidArgument, "the result is too large to send (%v); ask for less, e.g. a smaller maxChars or include", err)})
					}
				}
				// Its timeline gets the step once the reply is out (replay.go).
				d.noteStep(session, call, reply, at)
				done()
			}()
		case protocol.TypeVerb:
			var v protocol.VerbCall
			if err := json.Unmarshal(frame, &v); err != nil {
				c.SendJSON(protocol.Reply{ID: call.ID, Error: protocol.Errorf(protocol.CodeInvalidArgument, "a verb message must be {id, type, verb, params}: %v", err)})
				continue
			}
			vctx, vcancel := context.WithCancel(ctx)
			mu.Lock()
			calls[v.ID] = vcancel
			mu.Unlock()
			go func() {
				defer func() {
					mu.Lock()
					delete(calls, v.ID)
					mu.Unlock()
					vcancel()
				}()
				start := time.Now()
				r, where := d.handleVerb(vctx, v, &verbs)
				d.auditVerb(session, where, v, errOf(r), time.Since(start))
				c.SendJSON(r)
			}()
		default:
			c.SendJSON(protocol.Reply{ID: call.ID, Error: protocol.Errorf(protocol.CodeInvalidArgument, "unknown message type %q", call.Type)})
		}
	}
}

// errOf is a reply's error as an error (nil when it has none).
func errOf(r protocol.Reply) error {
	if r.Error == nil {
		return nil
	}
	return r.Error
}

// handleCall runs one action under its deadline and never panics the daemon.
func (d *Daemon) handleCall(ctx context.Context, session string, call protocol.Call, progress func(string)) (reply protocol.Reply) {
	reply.ID = call.ID
	start := time.Now()
	defer func() {
		if p := recover(); p != nil {
			d.log.Error("panic in call", "panic", p)
			reply = protocol.Reply{ID: call.ID, Error: protocol.Errorf(protocol.CodeInternal, "internal error (%v); please report it with the daemon log %s", p, d.layout.DaemonLog())}
		}
	}()
	// The front ends parsed the input already; what arrives over the
	// socket is checked again with the same code.
	in, spec, err := tool.Parse(call.Input)
	if err != nil {
		reply.Error = protocol.AsError(err)
		return reply
	}
	// Status still answers when the bridge is off or paused, and says so.
	if e := d.gate(in, spec); e != nil {
		d.auditCall(session, "", in, nil, e, time.Since(start))
		reply.Error = e
		return reply
	}
	ctx, cancel := context.WithTimeout(browser.WithProgress(ctx, progress), in.Deadline())
	defer cancel()
	var res any
	// An action works in the registry of the extension it talks to, so
	// it starts once one is connected: a command sent while the
	// extension reconnects waits for it (within its deadline) rather
	// than book its tabs under no browser at all. Status answers either
	// way. The call works in one browser (route), with its tab IDs.
	routed, rt, err := d.route(ctx, in)
	// Status answers with diagnostics when no browser is connected, but
	// a browser it names must be there.
	if err == nil && (in.Action != "status" || in.Browser != "" || in.TabID != nil) {
		if p, ok := rt.b.(*browser.Pinned); ok {
			err = p.Ready(ctx)
		}
	}
	if err == nil {
		res, err = actions.RunOn(ctx, d.env, rt.b, session, routed, progress)
	}
	if err == nil {
		res = rt.qualify(res)
	} else {
		err = rt.qualifyError(err)
	}
	where := ""
	if p, ok := rt.b.(*browser.Pinned); ok {
		where = p.Label()
	}
	defer func() { d.auditCall(session, where, in, reply.Result, errOf(reply), time.Since(start)) }()
	d.log.Debug("call", "action", in.Action, "session", session, "ms", time.Since(start).Milliseconds(), "err", err)
	if err != nil {
		e := protocol.AsError(err)
		if errors.Is(err, context.DeadlineExceeded) {
			hint := "try again"
			if in.Deadline() < tool.DefaultDeadline {
				hint += " or raise timeoutMs"
			}
			e = protocol.Errorf(protocol.CodeTimeout, "%s did not finish within %s; %s", in.Action, in.Deadline(), hint)
		} else if errors.Is(err, context.Canceled) {
			e = protocol.Errorf(protocol.CodeTimeout, "%s was cancelled by the caller", in.Action)
		}
		reply.Error = e
		return reply
	}
	reply.Result = res
	return reply
}

// openFDs counts the daemon's open file descriptors (-1 where the system
// does not list them), for status: with goroutines, what a test (or a
// user) watches to see that faults leave nothing behind.
func openFDs() int {
	for _, dir := range []string{"/proc/self/fd", "/dev/fd"} {
		if ents, err := os.ReadDir(dir); err == nil {
			return len(ents) - 1 // the one ReadDir itself held open
		}
	}
	return -1
}
