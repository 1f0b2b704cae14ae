package launch

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

// The page a browser opens at start-up loads every time, and the bridge
// reads it: here 20 starts in a row, with the user's site rules denying a
// site the page frames (the shape in which the first load was seen to
// hang, no request reaching the server).
func TestLaunchFirstPageLoadsEveryTime(t *testing.T) {
	var hits atomic.Int64
	denied := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<p>denied"))
	}))
	defer denied.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/first" {
			http.NotFound(w, r)
			return
		}
		hits.Add(1)
		fmt.Fprintf(w, `<!doctype html><title>First page</title><p>FIRST-PAGE-TEXT</p><iframe src="%s/framed"></iframe>`, strings.Replace(denied.URL, "127.0.0.1", "localhost", 1))
	}))
	defer srv.Close()

	e, err := browsertest.NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if r := e.Run(t, "policy", "deny", strings.Replace(strings.TrimPrefix(denied.URL, "http://"), "127.0.0.1", "localhost", 1)); r.Exit != 0 {
		t.Fatalf("policy deny: %s %s", r.Stdout, r.Stderr)
	}
	for i := range 20 {
		before := hits.Load()
		text, err := startAndRead(t, e, srv.URL+"/first")
		if err != nil {
			t.Fatalf("start %d: %v (the server got %d requests for the page)", i+1, err, hits.Load()-before)
		}
		if !strings.Contains(text, "FIRST-PAGE-TEXT") {
			t.Fatalf("start %d: the page reads %q", i+1, text)
		}
	}
}

// startAndRead runs launch --headless --url page, reads the page's text
// in the tab it opened, and stops the browser.
func startAndRead(t *testing.T, e browsertest.Env, page string) (string, error) {
	t.Helper()
	cmd := e.Command(t.Context(), "launch", "--headless", "--url", page)
	stdout, _ := cmd.StdoutPipe()
	logf, _ := os.Create(filepath.Join(e.Home, "launch.log"))
	defer logf.Close()
	cmd.Stderr = logf
	if err := cmd.Start(); err != nil {
		return "", err
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()
	line := make(chan bool, 1)
	go func() { line <- bufio.NewScanner(stdout).Scan() }()
	select {
	case ok := <-line:
		if !ok {
			return "", fmt.Errorf("launch printed nothing")
		}
	case <-time.After(60 * time.Second):
		return "", fmt.Errorf("launch printed nothing in 60 s")
	}
	tab := 0
	for deadline := time.Now().Add(10 * time.Second); tab == 0 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		for _, tm := range browsertest.StatusTabs(e.Run(t, "status").JSON) {
			if strings.HasPrefix(fmt.Sprint(tm["url"]), page) {
				tab = int(tm["tabId"].(float64))
			}
		}
	}
	if tab == 0 {
		return "", fmt.Errorf("status lists no tab at %s", page)
	}
	r := e.Run(t, "extract", "--tabId", fmt.Sprint(tab), "--include", "text", "--timeoutMs", "10000")
	if r.Exit != 0 {
		return "", fmt.Errorf("extract: %s %s", r.Stdout, r.Stderr)
	}
	return fmt.Sprint(r.JSON["text"]), nil
}
