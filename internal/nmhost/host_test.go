package nmhost

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/browser-bridge/browser-bridge/internal/ipc/ipctest"
	"github.com/browser-bridge/browser-bridge/internal/nmframe"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// chrome stands in for Chrome's end of the host's stdio: it writes frames
// to the host's stdin and reads the host's stdout, in Chrome's framing.
type chrome struct {
	t      *testing.T
	stdin  *io.PipeWriter
	frames chan []byte // what the host wrote to stdout, frame by frame
	done   chan error  // Run's result
}

// startHost runs a Host for layout with in-memory pipes for stdio. With
// out set, the host writes there instead and chrome.frames stays empty.
func startHost(t *testing.T, layout paths.Layout, out io.Writer) *chrome {
	t.Helper()
	inR, inW := io.Pipe()
	c := &chrome{t: t, stdin: inW, frames: make(chan []byte, 16), done: make(chan error, 1)}
	if out == nil {
		outR, outW := io.Pipe()
		out = outW
		t.Cleanup(func() { outR.Close() })
		go func() {
			defer close(c.frames)
			// A limit above Chrome's, so that a frame the host should
			// have refused shows up here instead of hiding as an error.
			r := nmframe.Reader{R: outR, Limit: 2 * nmframe.MaxToChrome}
			for {
				f, err := r.Read()
				if err != nil {
					return
				}
				c.frames <- f
			}
		}()
	}
	h := &Host{Layout: layout, In: inR, Out: out, Log: slog.New(slog.DiscardHandler)}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() {
		cancel()
		inW.Close()
	})
	go func() { c.done <- h.Run(ctx) }()
	return c
}

// send writes one frame to the host's stdin.
func (c *chrome) send(frame string) {
	c.t.Helper()
	if err := nmframe.Write(c.stdin, []byte(frame), nmframe.MaxFromChrome, "from Chrome"); err != nil {
		c.t.Fatalf("writing to the host's stdin: %v", err)
	}
}

// next returns the next frame the host wrote to Chrome.
func (c *chrome) next() string {
	c.t.Helper()
	select {
	case f, ok := <-c.frames:
		if !ok {
			c.t.Fatal("the host's stdout ended")
		}
		return string(f)
	case <-time.After(ipctest.Wait):
		c.t.Fatalf("no frame to Chrome within %s", ipctest.Wait)
		return ""
	}
}

// ping checks that the host answers the extension's keep-alive itself. It
// also proves the host has handled every frame sent before it.
func (c *chrome) ping() {
	c.t.Helper()
	c.send(`{"type":"ping"}`)
	if got := c.next(); got != `{"type":"pong"}` {
		c.t.Fatalf("answer to ping: %s", got)
	}
}

// running fails the test if Run has returned.
func (c *chrome) running() {
	c.t.Helper()
	select {
	case err := <-c.done:
		c.t.Fatalf("Run returned (%v); Chrome's side must stay open", err)
	default:
	}
}

// result waits for Run to return.
func (c *chrome) result() error {
	c.t.Helper()
	select {
	case err := <-c.done:
		return err
	case <-time.After(ipctest.Wait):
		c.t.Fatalf("Run did not return within %s", ipctest.Wait)
		return nil
	}
}

// recv reads the next frame the host sent the daemon.
func recv(t *testing.T, c *ipctest.Conn) string { t.Helper(); return string(ipctest.Recv(t, c.Conn)) }

// sendDaemon writes a frame as the daemon.
func sendDaemon(t *testing.T, c *ipctest.Conn, frame string) {
	t.Helper()
	if err := c.Send([]byte(frame)); err != nil {
		t.Fatalf("daemon: sending: %v", err)
	}
}

// nothingFrom fails the test if the daemon gets a frame within d.
func nothingFrom(t *testing.T, c *ipctest.Conn, d time.Duration) {
	t.Helper()
	c.SetDeadline(time.Now().Add(d))
	defer c.SetDeadline(time.Time{})
	if f, err := c.Recv(); err == nil {
		t.Errorf("the daemon got an unexpected frame: %.200s", f)
	}
}

const hello = `{"type":"hello","version":"0.1.0","protocol":1,"extensionId":"aiponkfbabfbibgdjamacpapdfpcjeeo","instanceId":"i1"}`

// connected starts a fake daemon and a host, and waits until the host has
// connected and passed the extension's hello on.
func connected(t *testing.T) (*chrome, *ipctest.Daemon, *ipctest.Conn) {
	t.Helper()
	layout := ipctest.Layout(t)
	d := ipctest.Start(t, layout)
	c := startHost(t, layout, nil)
	dc := d.Accept()
	c.send(hello)
	if got := recv(t, dc); got != hello {
		t.Fatalf("first frame to the daemon: %s", got)
	}
	return c, d, dc
}

func TestHostAuthenticatesAsHost(t *testing.T) {
	t.Parallel()
	_, _, dc := connected(t)
	// The fake checked the secret; the rest of the handshake is the host's.
	want := protocol.Auth{Type: protocol.TypeAuth, Role: protocol.RoleHost, Secret: dc.Auth.Secret, Protocol: protocol.Version, PID: os.Getpid()}
	if diff := cmp.Diff(want, dc.Auth); diff != "" {
		t.Errorf("handshake (-want +got):\n%s", diff)
	}
}

func TestHostRelaysFramesUnchanged(t *testing.T) {
	t.Parallel()
	c, _, dc := connected(t)
	// Odd spacing, escapes and non-ASCII: the host must pass bytes, not
	// re-encode them.
	toChrome := []string{
		`{"id":"1","type":"tabs.list"}`,
		`{ "id" : "2", "type":"page.run", "script":"a<b && c>d", "text":"grüße ✓ \u00e9" }`,
	}
	toDaemon := []string{
		`{"id":"1","result":{"tabs":[]}}`,
		`{"id":"2","error":{"code":"element_not_found","message":"no <button>"}}`,
		`{"id":"3" , "result" : "ü"}`,
	}
	for _, f := range toChrome {
		sendDaemon(t, dc, f)
		if got := c.next(); got != f {
			t.Errorf("daemon → Chrome:\n got %s\nwant %s", got, f)
		}
	}
	for _, f := range toDaemon {
		c.send(f)
		if got := recv(t, dc); got != f {
			t.Errorf("Chrome → daemon:\n got %s\nwant %s", got, f)
		}
	}
}

func TestHostAnswersPingItself(t *testing.T) {
	t.Parallel()
	t.Run("without a daemon", func(t *testing.T) {
		t.Parallel()
		c := startHost(t, ipctest.Layout(t), nil) // nobody listens
		c.ping()
		c.running()
	})
	t.Run("with a daemon, which never sees the ping", func(t *testing.T) {
		t.Parallel()
		c, _, dc := connected(t)
		c.ping()
		c.send(`{"id":"after"}`)
		if got := recv(t, dc); got != `{"id":"after"}` {
			t.Errorf("the daemon got %s; want the frame after the ping", got)
		}
	})
}

func TestHostSkipsFramesFromChromeThatAreNotObjects(t *testing.T) {
	t.Parallel()
	c, _, dc := connected(t)
	for _, f := range []string{`nonsense`, `[1,2]`, `"str"`, ``, `{"id":`} {
		c.send(f)
	}
	c.send(`{"id":"ok"}`)
	if got := recv(t, dc); got != `{"id":"ok"}` {
		t.Errorf("the daemon got %s; want only the valid frame", got)
	}
	c.running()
}

func TestHostKeepsChromeOpenAndRedialsTheDaemon(t *testing.T) {
	t.Parallel()
	layout := ipctest.Layout(t)
	d1 := ipctest.Start(t, layout, ipctest.WithPID(1))
	c := startHost(t, layout, nil)
	dc1 := d1.Accept()
	c.send(hello)
	if got := recv(t, dc1); got != hello {
		t.Fatalf("first frame to the daemon: %s", got)
	}

	d1.Close() // the daemon exits (or restarts)
	c.ping()   // Chrome's port is still served
	// A reply to the old daemon has nobody to go to: it must not reach
	// the new one.
	c.send(`{"id":"7","result":"late"}`)
	c.ping()
	c.running()

	d2 := ipctest.Start(t, layout, ipctest.WithPID(2))
	dc2 := d2.Accept()
	if got := recv(t, dc2); got != hello {
		t.Fatalf("first frame to the new daemon: %s; want the cached hello", got)
	}
	c.send(`{"id":"8","result":"new"}`)
	if got := recv(t, dc2); got != `{"id":"8","result":"new"}` {
		t.Errorf("the new daemon got %s", got)
	}
	sendDaemon(t, dc2, `{"id":"9","type":"tabs.list"}`)
	if got := c.next(); got != `{"id":"9","type":"tabs.list"}` {
		t.Errorf("Chrome got %s from the new daemon", got)
	}
}

// commandOfSize returns a command of exactly n bytes, with id if not "".
func commandOfSize(t *testing.T, id string, n int) string {
	t.Helper()
	head := `{"type":"page.run","pad":"`
	if id != "" {
		head = `{"id":"` + id + `","type":"page.run","pad":"`
	}
	const tail = `"}`
	f := head + strings.Repeat("x", n-len(head)-len(tail)) + tail
	if len(f) != n {
		t.Fatalf("built %d bytes, want %d", len(f), n)
	}
	return f
}

func TestHostRefusesCommandsOverChromesLimit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		id        string
		size      int
		delivered bool
	}{
		// E2E.md: exactly 1,048,576 bytes reach the extension; one more
		// and Chrome closes the host's pipes.
		{"exactly 1 MiB is delivered", "max", nmframe.MaxToChrome, true},
		{"one byte more is refused with a reply", "big", nmframe.MaxToChrome + 1, false},
		{"over the limit without an id: dropped, nobody to tell", "", nmframe.MaxToChrome + 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, _, dc := connected(t)
			f := commandOfSize(t, tc.id, tc.size)
			sendDaemon(t, dc, f)
			if tc.delivered {
				if got := c.next(); got != f {
					t.Fatalf("Chrome got %d bytes, want the %d-byte frame whole", len(got), len(f))
				}
				return
			}
			if tc.id != "" {
				var r protocol.Envelope
				if err := json.Unmarshal([]byte(recv(t, dc)), &r); err != nil {
					t.Fatal(err)
				}
				if r.ID != tc.id || r.Error == nil || r.Error.Code != protocol.CodeInvalidArgument || !strings.Contains(r.Error.Message, "1 MiB") {
					t.Errorf("reply to the daemon: %+v %+v; want %q with invalid_argument naming 1 MiB", r, r.Error, tc.id)
				}
			} else {
				nothingFrom(t, dc, 50*time.Millisecond)
			}
			// Nothing of the refused frame went to Chrome: the next frame
			// Chrome reads is the next command.
			sendDaemon(t, dc, `{"id":"after","type":"tabs.list"}`)
			if got := c.next(); got != `{"id":"after","type":"tabs.list"}` {
				t.Errorf("Chrome got %.100s… (%d bytes); want the command after the refused one", got, len(got))
			}
			c.running()
		})
	}
}

func TestHostEndsWhenChromeClosesStdin(t *testing.T) {
	t.Parallel()
	c, _, dc := connected(t)
	c.stdin.Close()
	if err := c.result(); err != nil {
		t.Errorf("Run after EOF on stdin: %v, want nil", err)
	}
	// The daemon sees the host go.
	dc.SetDeadline(time.Now().Add(ipctest.Wait))
	if _, err := dc.Recv(); !errors.Is(err, io.EOF) {
		t.Errorf("daemon side after the host ended: %v, want EOF", err)
	}
}

func TestHostEndsWithErrorWhenChromesStdoutIsGone(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		trigger func(t *testing.T, c *chrome, dc *ipctest.Conn)
	}{
		{"relaying a command", func(t *testing.T, c *chrome, dc *ipctest.Conn) {
			sendDaemon(t, dc, `{"id":"1","type":"tabs.list"}`)
		}},
		{"answering a ping", func(t *testing.T, c *chrome, dc *ipctest.Conn) {
			c.send(`{"type":"ping"}`)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// A real pipe whose read end is closed stands in for Chrome's
			// stdout after Chrome dropped the port: writes fail with EPIPE.
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			r.Close()
			t.Cleanup(func() { w.Close() })
			layout := ipctest.Layout(t)
			d := ipctest.Start(t, layout)
			c := startHost(t, layout, w)
			dc := d.Accept()
			tc.trigger(t, c, dc)
			// stdin stays open: the write error alone must end Run.
			err = c.result()
			if !errors.Is(err, syscall.EPIPE) {
				t.Errorf("Run: %v, want an error wrapping EPIPE", err)
			}
		})
	}
}

func TestHostStopsWhenContextEnds(t *testing.T) {
	t.Parallel()
	layout := ipctest.Layout(t)
	d := ipctest.Start(t, layout)
	inR, inW := io.Pipe()
	defer inW.Close()
	h := &Host{Layout: layout, In: inR, Out: io.Discard, Log: slog.New(slog.DiscardHandler)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	dc := d.Accept()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run: %v, want context.Canceled", err)
		}
	case <-time.After(ipctest.Wait):
		t.Fatal("Run did not return after its context ended")
	}
	dc.SetDeadline(time.Now().Add(ipctest.Wait))
	if _, err := dc.Recv(); !errors.Is(err, io.EOF) {
		t.Errorf("daemon side after Run ended: %v, want EOF", err)
	}
}
