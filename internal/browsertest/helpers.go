package browsertest

import (
	"context"
	"testing"
	"time"
)

// The helpers the real-browser suites share (e2e/ask, e2e/user, e2e/read
// wrap them under their own short names).

// MustFail runs input and fails the test unless it fails with code; it
// returns the error's message.
func (e Env) MustFail(t testing.TB, input map[string]any, code string) string {
	t.Helper()
	r := e.Call(t, input)
	if r.Exit == 0 || r.Err == nil {
		t.Fatalf("call %v succeeded, want error %s: %s", input, code, r.Stdout)
	}
	if r.Err.Code != code {
		t.Fatalf("call %v: error %s %q, want %s", input, r.Err.Code, r.Err.Message, code)
	}
	return r.Err.Message
}

// Workspace names a workspace of the test's own, closed at its end.
func (e Env) Workspace(t testing.TB, id string) string {
	t.Helper()
	t.Cleanup(func() {
		e.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": id})
	})
	return id
}

// OpenIn opens url in workspace ws and returns its tabId.
func (e Env) OpenIn(t testing.TB, ws, url string) int {
	t.Helper()
	return Num(t, e.MustCall(t, map[string]any{"action": "open", "url": url, "browserWorkspaceId": ws}), "tabId")
}

// ExtensionURL is a page of the bridge's extension.
func (b *Bridge) ExtensionURL(path string) string {
	return "chrome-extension://" + b.Launch.ExtensionID + "/" + path
}

// SharedDevTools is the test binary's one DevTools connection to a bridge
// started with StartWithDevTools, made at its first use.
func (b *Bridge) SharedDevTools(t testing.TB) *DevTools {
	t.Helper()
	b.devOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		b.dev, b.devErr = b.DevTools(ctx)
	})
	if b.devErr != nil {
		t.Fatal(b.devErr)
	}
	return b.dev
}

// Ctx bounds one test's waits to d; it is cancelled when the test ends.
func Ctx(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// Num is the number at key of a JSON result; the test fails without one.
func Num(t testing.TB, m map[string]any, key string) int {
	t.Helper()
	v, ok := m[key].(float64)
	if !ok {
		t.Fatalf("result has no number %q: %v", key, m)
	}
	return int(v)
}

// Str is the string at key of a JSON result ("" without one).
func Str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}
