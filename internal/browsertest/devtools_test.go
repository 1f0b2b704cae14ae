package browsertest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/launcher"
)

// A command in flight to a frame that is removed meanwhile gets no reply
// from Chrome; DevTools.Call fails it with ErrTargetGone when the browser
// says the session detached, instead of waiting for its context. (The
// question box of e2e/ask goes away while the test polls it: such a poll
// waited out the test's whole 90 s context in loaded CI runs.)
func TestDevToolsCallToRemovedFrame(t *testing.T) {
	child := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<!doctype html><title>child</title><p>child"))
	}))
	defer child.Close()
	// localhost is another site than 127.0.0.1: the frame has a process
	// and a target of its own.
	childURL := strings.Replace(child.URL, "127.0.0.1", "localhost", 1) + "/frame"
	top := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><title>top</title><iframe id=f src="` + childURL + `"></iframe>`))
	}))
	defer top.Close()

	bin, err := launcher.Find()
	if err != nil {
		t.Fatal(err)
	}
	profile := t.TempDir()
	args := append([]string{"--headless=new", "--user-data-dir=" + profile, "--no-first-run", "--no-default-browser-check",
		"--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"},
		strings.Fields(devtoolsArgs)...)
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	cmd := exec.Command(bin, append(args, top.URL)...)
	cmd.Env = append(os.Environ(), "HOME="+profile, "XDG_CONFIG_HOME="+profile, "XDG_CACHE_HOME="+profile)
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		killGroup(cmd)
		cmd.Wait()
	}()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b := &Bridge{}
	b.Launch.Profile = profile
	d, err := b.DevTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	page := d.PageSession(t, ctx, top.URL)
	ft, err := d.WaitTarget(ctx, "iframe", childURL)
	if err != nil {
		t.Fatal(err)
	}
	frame, err := d.Attach(ctx, ft.TargetID)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.WaitEval(ctx, frame, `document.body?.innerText === "child"`); err != nil {
		t.Fatal(err)
	}

	// The frame is busy for 10 s (longer than a loaded machine could take
	// to get to the removal: an answer in time would fail the test), so
	// the next command waits in it; the frame is removed meanwhile.
	if err := d.Eval(ctx, frame, `setTimeout(() => { const end = Date.now() + 10000; while (Date.now() < end); }, 0); 1`, nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	done := make(chan error, 1)
	go func() { done <- d.Eval(ctx, frame, `1`, nil) }()
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	if err := d.Eval(ctx, page, `document.getElementById("f").remove()`, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, ErrTargetGone) {
			t.Errorf("the command to the removed frame: %v, want ErrTargetGone", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the command to the removed frame had no answer %s after the frame went", time.Since(start).Round(time.Millisecond))
	}
	// A command sent after: the same error.
	if err := d.Eval(ctx, frame, `1`, nil); !errors.Is(err, ErrTargetGone) {
		t.Errorf("a command to the frame once it went: %v, want ErrTargetGone", err)
	}
}
