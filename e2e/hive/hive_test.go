//go:build unix

package hive

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// connect starts Hive's server at addr and path, turns the transport on
// for it and returns the extension's connection.
func connect(t *testing.T, addr, path string) (*hiveServer, *peer) {
	t.Helper()
	s := startHive(t, addr, path)
	enable(t, s.url, "")
	return s, s.accept(t, 15*time.Second)
}

// checkHello checks the hello of Hive's protocol 6.
func checkHello(t *testing.T, p *peer) {
	t.Helper()
	h := p.hello
	if strOf(t, h, "type") != "hello" {
		t.Fatalf("hello: %v", h)
	}
	if v := intOf(t, h, "protocolVersion"); v != 6 {
		t.Errorf("hello protocolVersion = %d, want 6", v)
	}
	if strOf(t, h, "version") == "" {
		t.Errorf("hello has an empty version: %v", h)
	}
	if id := strOf(t, h, "extensionId"); id != bridge.Launch.ExtensionID {
		t.Errorf("hello extensionId = %q, want %q", id, bridge.Launch.ExtensionID)
	}
	// Hive writes labels into key=value log lines and keys by them, and
	// its own look like keen-rose-moth: no spaces.
	if l := strOf(t, h, "profileLabel"); !regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)+$`).MatchString(l) {
		t.Errorf("hello's profileLabel %q is not a label like chromium-88cc5fad", l)
	}
	if p.conn.Origin != "chrome-extension://"+bridge.Launch.ExtensionID {
		t.Errorf("the handshake's Origin is %q", p.conn.Origin)
	}
}

// pingPong: Hive's server pings every 5 s and gives up after 12 s without
// a pong.
func pingPong(t *testing.T, p *peer) {
	t.Helper()
	for i := 0; i < 3; i++ {
		sent := time.Now()
		p.conn.WriteText(`{"type":"ping"}`)
		select {
		case <-p.pongs:
			if d := time.Since(sent); d > 2*time.Second {
				t.Errorf("the pong took %s", d)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no pong to the server's ping within 5 s")
		}
	}
}

// The whole of a Hive agent's life, as Hive's server drives it: hello,
// ping, a context, attach with the console canary, navigate, read the
// title, list tabs and groups, destroy — every reply's shape checked.
func TestHiveSession(t *testing.T) {
	_, p := connect(t, "127.0.0.1:14829", "/bridge")
	checkHello(t, p)
	if len(p.conn.Protocols) != 0 {
		t.Errorf("without a token the extension offered subprotocols %q", p.conn.Protocols)
	}
	if _, ok := p.hello["token"]; ok {
		t.Errorf("the hello has a token though none is set: %v", p.hello)
	}
	pingPong(t, p)
	// Hive's server sends the name bare; Hive's extension marks the title.
	runAgent(t, p, "Hive e2e agent")
}

// runAgent runs context.create → cdp.attach (canary) → Page.navigate →
// title → tab.list → tabGroup.list → context.destroy. The group is titled
// name and Hive's marker, U+200B, by which Hive's server tells its groups
// from the user's.
func runAgent(t *testing.T, p *peer, name string) {
	t.Helper()
	ctxRes := p.ok(t, "context.create", map[string]any{"agentId": "hive-e2e", "displayName": name})
	hasKeys(t, "context.create", ctxRes, "groupId", "tabId", "windowId")
	groupID, tabID, windowID := intOf(t, ctxRes, "groupId"), intOf(t, ctxRes, "tabId"), intOf(t, ctxRes, "windowId")

	att := p.ok(t, "cdp.attach", map[string]any{"tabId": tabID})
	if !boolOf(t, att, "ok") || !boolOf(t, att, "attached") {
		t.Errorf("cdp.attach = %v, want ok and attached", att)
	}
	// Hive's canary: a console message right after attaching must come
	// back as a cdp_event.
	p.cdp(t, tabID, "Runtime.evaluate", map[string]any{"expression": "console.log('canary')", "returnByValue": true})
	ev := p.event(t, "console canary", 10*time.Second, func(e map[string]any) bool {
		return e["type"] == "cdp_event" && e["method"] == "Runtime.consoleAPICalled" && strings.Contains(fmt.Sprint(e["params"]), "canary")
	})
	if intOf(t, ev, "tabId") != tabID {
		t.Errorf("the canary event names tab %v, want %d", ev["tabId"], tabID)
	}
	args := listOf(t, ev["params"].(map[string]any), "args")
	if len(args) == 0 || args[0]["value"] != "canary" {
		t.Errorf("canary event args: %v", args)
	}

	page := site + "/page/Hive%20fixture"
	nav := p.cdp(t, tabID, "Page.navigate", map[string]any{"url": page})
	hasKeys(t, "Page.navigate", nav, "frameId", "loaderId")
	p.event(t, "load lifecycle", 15*time.Second, func(e map[string]any) bool {
		params, _ := e["params"].(map[string]any)
		return e["type"] == "cdp_event" && e["method"] == "Page.lifecycleEvent" && params["name"] == "load" && int(e["tabId"].(float64)) == tabID
	})
	if got := p.eval(t, tabID, "document.title"); got != "Hive fixture" {
		t.Errorf("document.title = %v, want Hive fixture", got)
	}
	// A CDP error is Chrome's own message, as a string (a method of an
	// allowed domain that Chrome does not have).
	if r := p.call(t, "cdp", map[string]any{"tabId": tabID, "method": "Emulation.nonexistentMethod", "params": map[string]any{}}); !strings.Contains(r.Err, "wasn't found") {
		t.Errorf("an unknown CDP method: %v (want Chrome's \"wasn't found\")", r.raw)
	}

	list := p.ok(t, "tab.list", map[string]any{"groupId": groupID})
	tabs := listOf(t, list, "tabs")
	if len(tabs) != 1 {
		t.Fatalf("tab.list of the group = %v, want the one tab", tabs)
	}
	hasKeys(t, "tab.list entry", tabs[0], "id", "tabId", "url", "title", "groupId", "active")
	if intOf(t, tabs[0], "id") != tabID || intOf(t, tabs[0], "tabId") != tabID || intOf(t, tabs[0], "groupId") != groupID {
		t.Errorf("tab.list entry %v, want tab %d in group %d", tabs[0], tabID, groupID)
	}
	if strOf(t, tabs[0], "url") != page || strOf(t, tabs[0], "title") != "Hive fixture" {
		t.Errorf("tab.list entry %v, want %s titled Hive fixture", tabs[0], page)
	}
	boolOf(t, tabs[0], "active")

	groups := listOf(t, p.ok(t, "tabGroup.list", nil), "groups")
	var mine map[string]any
	for _, g := range groups {
		hasKeys(t, "tabGroup.list entry", g, "id", "title", "color", "collapsed", "windowId")
		if intOf(t, g, "id") == groupID {
			mine = g
		}
	}
	if mine == nil {
		t.Fatalf("tabGroup.list %v lacks group %d", groups, groupID)
	}
	if want := name + "\u200b"; strOf(t, mine, "title") != want {
		t.Errorf("the group's title is %q, want %q: the name and Hive's marker", mine["title"], want)
	}
	if intOf(t, mine, "windowId") != windowID || boolOf(t, mine, "collapsed") || strOf(t, mine, "color") == "" {
		t.Errorf("tabGroup.list entry %v, want window %d, not collapsed, a color", mine, windowID)
	}

	gone := p.ok(t, "context.destroy", map[string]any{"groupId": groupID})
	if !boolOf(t, gone, "ok") || intOf(t, gone, "closedTabs") != 1 || boolOf(t, gone, "persistedGroup") {
		t.Errorf("context.destroy = %v, want ok, closedTabs 1, persistedGroup false", gone)
	}
	p.allEvents(t, 10*time.Second, map[string]func(map[string]any) bool{
		"tab removed": func(e map[string]any) bool {
			return e["type"] == "tab_event" && e["event"] == "removed" && int(e["tabId"].(float64)) == tabID
		},
		"group removed": func(e map[string]any) bool {
			return e["type"] == "tab_group_event" && e["event"] == "removed" && int(e["groupId"].(float64)) == groupID && int(e["windowId"].(float64)) == windowID
		},
	})
	// The tab is really gone: Chrome says so, and so does the bridge.
	if r := p.call(t, "tab.get", map[string]any{"tabId": tabID}); !strings.Contains(r.Err, "No tab with id") {
		t.Errorf("tab.get of the destroyed context's tab: %v", r.raw)
	}
	status := bridge.MustCall(t, map[string]any{"action": "status"})
	if strings.Contains(compact(status), page) {
		t.Errorf("status still shows %s after context.destroy: %s", page, compact(status))
	}
}

// The seed's endpoint: port 9229, path /beeline.
func TestSeedEndpoint(t *testing.T) {
	_, p := connect(t, "127.0.0.1:9229", "/beeline")
	if p.conn.Path != "/beeline" {
		t.Errorf("the extension dialled %q", p.conn.Path)
	}
	checkHello(t, p)
	pingPong(t, p)
	runAgent(t, p, "seed agent")
}

// Requests are concurrent, ids are strings, tab events and unknown types.
func TestHiveVerbs(t *testing.T) {
	_, p := connect(t, "127.0.0.1:14829", "/bridge")
	c := p.ok(t, "context.create", map[string]any{"agentId": "verbs"})
	groupID, tabID := intOf(t, c, "groupId"), intOf(t, c, "tabId")
	t.Cleanup(func() { p.call(t, "context.destroy", map[string]any{"groupId": groupID}) })
	// agentId is the title when no displayName comes, marked once
	// however many markers it came with.
	marked := intOf(t, p.ok(t, "context.create", map[string]any{"agentId": "marked", "displayName": "marked\u200b\u200b"}), "groupId")
	t.Cleanup(func() { p.call(t, "context.destroy", map[string]any{"groupId": marked}) })
	for _, g := range listOf(t, p.ok(t, "tabGroup.list", nil), "groups") {
		if intOf(t, g, "id") == groupID && g["title"] != "verbs\u200b" {
			t.Errorf("group title %q, want %q", g["title"], "verbs\u200b")
		}
		if intOf(t, g, "id") == marked && g["title"] != "marked\u200b" {
			t.Errorf("group title %q, want %q", g["title"], "marked\u200b")
		}
	}
	p.ok(t, "context.destroy", map[string]any{"groupId": marked})
	// A second tab in the context; events for it.
	second := intOf(t, p.ok(t, "tab.create", map[string]any{"groupId": groupID, "url": site + "/page/second"}), "tabId")
	p.event(t, "second tab grouped", 10*time.Second, func(e map[string]any) bool {
		return e["type"] == "tab_event" && e["event"] == "grouped" && int(e["tabId"].(float64)) == second && int(e["groupId"].(float64)) == groupID
	})
	if r := p.ok(t, "tab.activate", map[string]any{"tabId": second}); !boolOf(t, r, "ok") {
		t.Errorf("tab.activate = %v", r)
	}
	p.event(t, "second tab activated", 10*time.Second, func(e map[string]any) bool {
		return e["type"] == "tab_event" && e["event"] == "activated" && int(e["tabId"].(float64)) == second
	})
	got := p.ok(t, "tab.get", map[string]any{"tabId": second})
	hasKeys(t, "tab.get", got, "id", "tabId", "url", "title", "groupId", "active", "windowId")
	if intOf(t, got, "groupId") != groupID || !boolOf(t, got, "active") {
		t.Errorf("tab.get = %v, want active in group %d", got, groupID)
	}
	// Concurrent requests: each reply finds its own id.
	var wg sync.WaitGroup
	var mu sync.Mutex
	replies := map[int]reply{}
	chans := map[int]<-chan map[string]any{}
	for i := 0; i < 8; i++ {
		chans[i] = p.send(t, "cdp", map[string]any{"tabId": []int{tabID, second}[i%2], "method": "Runtime.evaluate", "params": map[string]any{"expression": fmt.Sprintf("new Promise(r => setTimeout(() => r(%d), %d))", i, 200-20*i), "awaitPromise": true, "returnByValue": true}})
	}
	for i, ch := range chans {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := p.wait(t, "cdp", ch)
			mu.Lock()
			replies[i] = r
			mu.Unlock()
		}()
	}
	wg.Wait()
	for i, r := range replies {
		v := r.Result["result"].(map[string]any)["value"]
		if v != float64(i) {
			t.Errorf("concurrent request %d got %v", i, v)
		}
	}
	audit := p.ok(t, "tab.audit", map[string]any{"tabId": tabID})
	hasKeys(t, "tab.audit", audit, "tabId", "url", "incognito", "ourExtensionId", "fileAccess", "targets", "cdpFrames")
	if audit["ourExtensionId"] != bridge.Launch.ExtensionID {
		t.Errorf("tab.audit ourExtensionId = %v", audit["ourExtensionId"])
	}
	ungrouped := listOf(t, p.ok(t, "tab.listUngrouped", nil), "tabs")
	if len(ungrouped) == 0 {
		t.Errorf("tab.listUngrouped lists nothing, but the user's chrome://version tab is ungrouped")
	}
	for _, u := range ungrouped {
		hasKeys(t, "tab.listUngrouped entry", u, "id", "windowId", "url")
	}
	// tab.list without a group: this program's tabs only.
	for _, tb := range listOf(t, p.ok(t, "tab.list", nil), "tabs") {
		if id := intOf(t, tb, "id"); id != tabID && id != second {
			t.Errorf("tab.list lists tab %v, which this program did not open", tb)
		}
	}
	if r := p.ok(t, "tab.close", map[string]any{"tabId": second}); !boolOf(t, r, "ok") {
		t.Errorf("tab.close = %v", r)
	}
	p.event(t, "second tab removed", 10*time.Second, func(e map[string]any) bool {
		return e["type"] == "tab_event" && e["event"] == "removed" && int(e["tabId"].(float64)) == second
	})
	if r := p.ok(t, "cdp.detach", map[string]any{"tabId": tabID}); !boolOf(t, r, "ok") {
		t.Errorf("cdp.detach = %v", r)
	}
	// Unknown types, and the actions' verbs, are not served here.
	for _, typ := range []string{"tab.reveal", "page.run", "cdp.batch", "browser.state", "window.create", "dom.setFiles", "websocket.configure", "program.call"} {
		p.refused(t, typ, map[string]any{"tabId": tabID}, typ)
	}
}

// What keeps the user safe: the user's tabs are out of reach, the methods
// beyond the tab are refused (docs/design.md#wire-protocol), and files need the daemon's check.
func TestProgramLimits(t *testing.T) {
	_, p := connect(t, "127.0.0.1:14829", "/bridge")
	// A tab the user has: opened by the bridge's own action, not by this
	// program.
	user := bridge.MustCall(t, map[string]any{"action": "open", "url": site + "/page/user", "browserWorkspaceId": "hive-user"})
	userTab := int(user["tabId"].(float64))
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": "hive-user"})
	})
	for _, c := range []struct {
		typ    string
		params map[string]any
	}{
		{"cdp", map[string]any{"tabId": userTab, "method": "Runtime.evaluate", "params": map[string]any{"expression": "document.cookie"}}},
		{"cdp.attach", map[string]any{"tabId": userTab}},
		{"tab.close", map[string]any{"tabId": userTab}},
		{"tab.activate", map[string]any{"tabId": userTab}},
		{"tab.audit", map[string]any{"tabId": userTab}},
	} {
		p.refused(t, c.typ, c.params, "not_owned")
	}
	if r := bridge.MustCall(t, map[string]any{"action": "status", "tabId": userTab}); !strings.Contains(compact(r), "/page/user") {
		t.Errorf("the user's tab changed: %s", compact(r))
	}
	groups := listOf(t, p.ok(t, "tabGroup.list", nil), "groups")
	for _, g := range groups {
		t.Errorf("tabGroup.list shows a group this program did not create: %v", g)
	}

	c := p.ok(t, "context.create", map[string]any{"agentId": "limits"})
	groupID, tabID := intOf(t, c, "groupId"), intOf(t, c, "tabId")
	t.Cleanup(func() { p.call(t, "context.destroy", map[string]any{"groupId": groupID}) })
	for _, m := range []string{"Network.getAllCookies", "Network.getCookies", "Storage.getCookies", "Storage.clearDataForOrigin", "DOMStorage.getDOMStorageItems", "IndexedDB.requestDatabaseNames", "CacheStorage.requestCacheNames", "Target.getTargets", "Browser.getVersion", "SystemInfo.getInfo"} {
		p.refused(t, "cdp", map[string]any{"tabId": tabID, "method": m, "params": map[string]any{}}, "method_not_allowed", m)
	}
	p.refused(t, "cdp", map[string]any{"tabId": tabID, "method": "Page.navigate", "params": map[string]any{"url": "file:///etc/passwd"}}, "file:")
	// Nor an extension's page: the bridge's blocked page once loaded the
	// file: address after its #.
	p.refused(t, "cdp", map[string]any{"tabId": tabID, "method": "Page.navigate", "params": map[string]any{"url": "chrome-extension://" + strings.Repeat("a", 32) + "/ui/blocked.html?rule=x#file:///etc/passwd"}}, "extension pages")

	// Files: the daemon checks every path first; a path it has not
	// accepted never reaches the page.
	p.cdp(t, tabID, "Page.navigate", map[string]any{"url": site + "/upload"})
	waitReady(t, p, tabID)
	doc := p.cdp(t, tabID, "DOM.getDocument", nil)
	root := int(doc["root"].(map[string]any)["nodeId"].(float64))
	q := p.cdp(t, tabID, "DOM.querySelector", map[string]any{"nodeId": root, "selector": "#f"})
	input := intOf(t, q, "nodeId")
	dir := t.TempDir()
	secretFile := filepath.Join(dir, ".ssh", "id_ed25519")
	okFile := filepath.Join(dir, "report.txt")
	os.MkdirAll(filepath.Dir(secretFile), 0o700)
	os.WriteFile(secretFile, []byte("not a key"), 0o600)
	os.WriteFile(okFile, []byte("a report"), 0o600)
	files := func() any {
		return p.eval(t, tabID, "Array.from(document.getElementById('f').files, f => f.name).join(',')")
	}
	start := time.Now()
	msg := p.refused(t, "cdp", map[string]any{"tabId": tabID, "method": "DOM.setFileInputFiles", "params": map[string]any{"nodeId": input, "files": []string{secretFile}}}, "no files were set")
	t.Logf("DOM.setFileInputFiles of %s refused after %s: %s", secretFile, time.Since(start).Round(time.Millisecond), msg)
	if got := files(); got != "" {
		t.Errorf("the input got files %v", got)
	}
	// A drag of files is the same check.
	p.refused(t, "cdp", map[string]any{"tabId": tabID, "method": "Input.dispatchDragEvent", "params": map[string]any{"type": "dragEnter", "x": 5, "y": 5, "data": map[string]any{"items": []any{}, "files": []string{secretFile}, "dragOperationsMask": 1}}}, "no files were set")
	// A file the daemon accepts is set (once it answers paths.check).
	r := p.call(t, "cdp", map[string]any{"tabId": tabID, "method": "DOM.setFileInputFiles", "params": map[string]any{"nodeId": input, "files": []string{okFile}}})
	switch {
	case strings.Contains(r.Err, "no answer to paths.check"):
		t.Logf("the daemon does not answer paths.check yet: %s", r.Err)
	case r.Err != "":
		t.Errorf("DOM.setFileInputFiles of %s: %s", okFile, r.Err)
	case files() != "report.txt":
		t.Errorf("after the daemon checked %s the input has %v", okFile, files())
	}
}

func waitReady(t *testing.T, p *peer, tabID int) {
	t.Helper()
	for i := 0; i < 100; i++ {
		if p.eval(t, tabID, "document.readyState") == "complete" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the page did not finish loading")
}

// Only loopback URLs: refused when set, and again by the extension
// before it connects (whatever is in storage).
func TestLoopbackOnly(t *testing.T) {
	for _, u := range []string{"ws://192.0.2.1:14829/bridge", "ws://example.com/bridge", "ws://0.0.0.0:14829/bridge", "ws://[::ffff:127.0.0.1]:14829/bridge"} {
		c := configure(t, u, "")
		if c.Err == nil || c.Err.Code != protocol.CodeInvalidArgument || !strings.Contains(c.Err.Message, "loopback") {
			t.Errorf("enabling %s: %+v, want invalid_argument naming the loopback rule", u, c)
		}
	}
	if c := configure(t, "http://127.0.0.1:14829/bridge", ""); c.Err == nil || c.Err.Code != protocol.CodeInvalidArgument {
		t.Errorf("enabling an http URL: %+v, want invalid_argument", c)
	}
	// A bad token is refused when set, saying which characters are allowed.
	if c := configure(t, "ws://127.0.0.1:14829/bridge", "has space"); c.Err == nil || c.Err.Code != protocol.CodeInvalidArgument || !strings.Contains(c.Err.Message, "letters, digits") {
		t.Errorf("a token with a space: %+v, want a refusal that says which characters are allowed", c)
	}
	// The connect-time check: an address of this machine that is not
	// loopback, where a server does listen.
	s := startHive(t, net.JoinHostPort(nonLoopback(), "0"), "/bridge")
	store(t, map[string]any{"enabled": true, "url": s.url})
	t.Cleanup(func() { configure(t, "", "") })
	s.noConnection(t, 3*time.Second)
	st := status(t)
	if st["enabled"] != true || st["connected"] != false || !strings.Contains(fmt.Sprint(st["lastError"]), "loopback") || st["url"] != s.url {
		t.Errorf("status after storing %s: %v, want enabled, not connected, and the loopback rule as lastError", s.url, st)
	}
}

// status is `browser-bridge websocket status`.
func status(t *testing.T) map[string]any {
	t.Helper()
	r := bridge.Run(t, "websocket", "status")
	if r.Exit != 0 || r.JSON == nil {
		t.Fatalf("websocket status: exit %d %s %s", r.Exit, r.Stdout, r.Stderr)
	}
	return r.JSON
}

// nonLoopback returns an address of this machine outside 127.0.0.0/8, or
// 0.0.0.0 (which reaches this machine's listeners on Linux) if it has
// none.
func nonLoopback() string {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
			return n.IP.String()
		}
	}
	return "0.0.0.0"
}

// A token goes in the hello and as the subprotocol.
func TestToken(t *testing.T) {
	s := startHive(t, "127.0.0.1:14829", "/bridge")
	enable(t, s.url, "s3cret-Token_1")
	p := s.accept(t, 15*time.Second)
	if len(p.conn.Protocols) != 1 || p.conn.Protocols[0] != "s3cret-Token_1" {
		t.Errorf("offered subprotocols %q, want the token", p.conn.Protocols)
	}
	if p.hello["token"] != "s3cret-Token_1" {
		t.Errorf("hello token = %v", p.hello["token"])
	}
	if st := status(t); st["tokenSet"] != true || st["connected"] != true || strings.Contains(compact(st), "s3cret") {
		t.Errorf("status %v: want connected, tokenSet and no token", st)
	}
}

// The server goes away and comes back: the extension dials again (250 ms
// doubling), says hello again, and the program's tabs are still its own.
func TestServerRestart(t *testing.T) {
	s, p := connect(t, "127.0.0.1:14829", "/bridge")
	c := p.ok(t, "context.create", map[string]any{"agentId": "restart"})
	groupID, tabID := intOf(t, c, "groupId"), intOf(t, c, "tabId")
	s.Close()
	p.conn.Close(1001)
	time.Sleep(1500 * time.Millisecond) // a few failed dials
	s2 := startHive(t, "127.0.0.1:14829", "/bridge")
	p2 := s2.accept(t, 10*time.Second)
	checkHello(t, p2)
	if p2.hello["profileLabel"] != p.hello["profileLabel"] {
		t.Errorf("profileLabel changed across the reconnect: %v, then %v", p.hello["profileLabel"], p2.hello["profileLabel"])
	}
	if got := p2.eval(t, tabID, "1 + 1"); got != float64(2) {
		t.Errorf("after the restart, cdp on the program's tab gave %v", got)
	}
	gone := p2.ok(t, "context.destroy", map[string]any{"groupId": groupID})
	if intOf(t, gone, "closedTabs") != 1 {
		t.Errorf("context.destroy after the restart = %v", gone)
	}
}

// A silent server is pinged after ~20 s, and given up on after 35 s: the
// extension closes and dials again.
func TestSilentServer(t *testing.T) {
	s := startHive(t, "127.0.0.1:14829", "/bridge")
	enable(t, s.url, "")
	p := s.accept(t, 15*time.Second)
	p.silent.Store(true) // the pings get no pong, and the server sends nothing
	start := time.Now()
	select {
	case <-p.pings:
		if d := time.Since(start); d < 15*time.Second {
			t.Errorf("the extension pinged after %s of silence, want ~20 s", d)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the extension did not ping a server silent for 30 s")
	}
	p.waitClosed(t, 25*time.Second)
	if d := time.Since(start); d < 33*time.Second {
		t.Errorf("the extension closed after %s of silence, want ~35 s", d)
	}
	p2 := s.accept(t, 10*time.Second)
	checkHello(t, p2)
}

// The service worker stops (as MV3 stops an idle one): the alarm starts it
// again, and it reconnects and says hello; the program's tabs are still
// its own.
func TestWorkerRestart(t *testing.T) {
	s, p := connect(t, "127.0.0.1:14829", "/bridge")
	c := p.ok(t, "context.create", map[string]any{"agentId": "worker"})
	groupID, tabID := intOf(t, c, "groupId"), intOf(t, c, "tabId")
	old := bridge.stopWorker(t)
	p.waitClosed(t, 10*time.Second)
	start := time.Now()
	p2 := s.accept(t, 45*time.Second)
	t.Logf("reconnected %s after the worker stopped", time.Since(start).Round(time.Millisecond))
	checkHello(t, p2)
	if p2.hello["profileLabel"] != p.hello["profileLabel"] {
		t.Errorf("profileLabel changed across the worker restart: %v, then %v", p.hello["profileLabel"], p2.hello["profileLabel"])
	}
	if now := bridge.worker(t, bridge.dialDevtools(t)); now == "" || now == old {
		t.Errorf("the worker target is %q after the restart, before %q: not a new worker", now, old)
	}
	if got := p2.eval(t, tabID, "2 + 2"); got != float64(4) {
		t.Errorf("after the worker restart, cdp on the program's tab gave %v", got)
	}
	p2.ok(t, "context.destroy", map[string]any{"groupId": groupID})
	// The native side came back too.
	bridge.MustCall(t, map[string]any{"action": "status"})
}

func compact(m map[string]any) string {
	b, _ := json.Marshal(m)
	return string(b)
}

// The daemon's local programs reach the same program door through the
// verb relay (program.call over the native link), as one owner of their
// own: their tabs are out of reach of the WebSocket peer and the other
// way round, and errors keep their stable codes.
func TestDaemonPrograms(t *testing.T) {
	must := func(verb string, params map[string]any) map[string]any {
		t.Helper()
		res, err := relay(t, verb, params)
		if err != nil {
			t.Fatalf("%s %v: %s %s", verb, params, err.Code, err.Message)
		}
		return res
	}
	refused := func(verb string, params map[string]any, code string) {
		t.Helper()
		res, err := relay(t, verb, params)
		if err == nil || err.Code != code {
			t.Fatalf("%s %v: %v %+v, want %s", verb, params, res, err, code)
		}
	}
	c := must("context.create", map[string]any{"agentId": "go-program"})
	hasKeys(t, "context.create", c, "groupId", "tabId", "windowId")
	groupID, tabID := intOf(t, c, "groupId"), intOf(t, c, "tabId")
	// The daemon's programs speak the bridge's protocol, not Hive's: their
	// groups are titled as sent, without Hive's marker.
	for _, g := range listOf(t, must("tabGroup.list", nil), "groups") {
		if intOf(t, g, "id") == groupID && g["title"] != "go-program" {
			t.Errorf("the daemon program's group is titled %q, want %q", g["title"], "go-program")
		}
	}
	must("cdp.attach", map[string]any{"tabId": tabID})
	must("cdp", map[string]any{"tabId": tabID, "method": "Page.navigate", "params": map[string]any{"url": site + "/page/go%20program"}})
	var title any
	for i := 0; i < 100 && title != "go program"; i++ {
		r := must("cdp", map[string]any{"tabId": tabID, "method": "Runtime.evaluate", "params": map[string]any{"expression": "document.readyState === 'complete' && document.title", "returnByValue": true}})
		title = r["result"].(map[string]any)["value"]
		time.Sleep(50 * time.Millisecond)
	}
	if title != "go program" {
		t.Errorf("the page's title through the relay: %v", title)
	}
	tabs := listOf(t, must("tab.list", map[string]any{"groupId": groupID}), "tabs")
	if len(tabs) != 1 || intOf(t, tabs[0], "id") != tabID || intOf(t, tabs[0], "tabId") != tabID {
		t.Errorf("tab.list through the relay: %v", tabs)
	}
	refused("cdp", map[string]any{"tabId": tabID, "method": "Storage.getCookies", "params": map[string]any{}}, protocol.CodeMethodNotAllowed)
	user := bridge.MustCall(t, map[string]any{"action": "open", "url": site + "/page/user", "browserWorkspaceId": "hive-user2"})
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": "hive-user2"})
	})
	refused("cdp", map[string]any{"tabId": int(user["tabId"].(float64)), "method": "Runtime.evaluate", "params": map[string]any{"expression": "1"}}, protocol.CodeNotOwned)
	refused("tab.close", map[string]any{"tabId": int(user["tabId"].(float64))}, protocol.CodeNotOwned)

	// A WebSocket program is another owner.
	_, p := connect(t, "127.0.0.1:14829", "/bridge")
	p.refused(t, "cdp", map[string]any{"tabId": tabID, "method": "Runtime.evaluate", "params": map[string]any{"expression": "1"}}, "not_owned")
	p.refused(t, "context.destroy", map[string]any{"groupId": groupID}, "not_owned")
	wsCtx := p.ok(t, "context.create", map[string]any{"agentId": "ws-program"})
	refused("cdp", map[string]any{"tabId": intOf(t, wsCtx, "tabId"), "method": "Runtime.evaluate", "params": map[string]any{"expression": "1"}}, protocol.CodeNotOwned)
	p.ok(t, "context.destroy", map[string]any{"groupId": intOf(t, wsCtx, "groupId")})

	gone := must("context.destroy", map[string]any{"groupId": groupID})
	if intOf(t, gone, "closedTabs") != 1 {
		t.Errorf("context.destroy through the relay: %v", gone)
	}
}

// A WebSocket program's commands stop while the user has paused the
// bridge, and each one lands in the audit trail with its verb, method and
// outcome (the daemon admits and records them; the page never reaches the
// trail).
func TestPauseAndAuditOnTheWebSocketDoor(t *testing.T) {
	_, p := connect(t, "127.0.0.1:14829", "/bridge")
	c := p.ok(t, "context.create", map[string]any{"agentId": "audited"})
	groupID, tabID := intOf(t, c, "groupId"), intOf(t, c, "tabId")
	t.Cleanup(func() { p.call(t, "context.destroy", map[string]any{"groupId": groupID}) })
	p.ok(t, "cdp.attach", map[string]any{"tabId": tabID})
	p.ok(t, "cdp", map[string]any{"tabId": tabID, "method": "Runtime.evaluate", "params": map[string]any{"expression": "'typed secret'", "returnByValue": true}})

	if r := bridge.Run(t, "pause"); r.Err != nil {
		t.Fatalf("pause: %s", r.Stdout)
	}
	t.Cleanup(func() { bridge.Run(t, "resume") })
	r := p.call(t, "tab.list", nil)
	if !strings.Contains(r.Err, "paused") {
		t.Errorf("tab.list while paused: %+v, want an error saying the bridge is paused", r)
	}
	bridge.Run(t, "resume")
	if r := p.call(t, "tab.list", nil); r.Err != "" {
		t.Errorf("tab.list after resume: %q", r.Err)
	}

	var log string
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		log = string(bridge.Run(t, "log", "--json", "-n", "0").Stdout)
		if strings.Contains(log, `"action":"cdp"`) && strings.Contains(log, `"code":"paused_by_user"`) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, want := range []string{`"door":"websocket"`, `"action":"context.create"`, `"action":"cdp"`, `"method":"Runtime.evaluate"`, `"code":"paused_by_user"`} {
		if !strings.Contains(log, want) {
			t.Errorf("the audit trail lacks %s", want)
		}
	}
	if strings.Contains(log, "typed secret") {
		t.Error("the audit trail holds a program's CDP params")
	}
	// Each of the program's lines names the browser it ran in.
	for _, line := range strings.Split(strings.TrimSpace(log), "\n") {
		var e struct{ Door, Action, Browser string }
		if json.Unmarshal([]byte(line), &e) == nil && e.Door == "websocket" && !strings.HasPrefix(e.Browser, "0 (") {
			t.Errorf("the audit line of the program's %s names browser %q; want slot 0's", e.Action, e.Browser)
		}
	}
}

// status and doctor say whether the WebSocket transport is on, where it
// dials and whether it is connected.
func TestStatusAndDoctorShowTheWebSocket(t *testing.T) {
	connect(t, "127.0.0.1:14829", "/bridge")
	st := bridge.MustCall(t, map[string]any{"action": "status"})
	ws, _ := st["websocket"].(map[string]any)
	if ws["enabled"] != true || ws["connected"] != true || ws["url"] != "ws://127.0.0.1:14829/bridge" {
		t.Errorf("status websocket: %v", st["websocket"])
	}
	doc := string(bridge.Run(t, "doctor", "--json").Stdout)
	if !strings.Contains(doc, "on, connected to ws://127.0.0.1:14829/bridge") {
		t.Errorf("doctor does not show the connected WebSocket: %s", doc)
	}
}

// The program door's CDP policy is an allow-list: what
// Hive's server sends passes; loading with the user's cookies
// (Network.loadNetworkResource, then IO.read), Fetch and the rest of
// Network are refused; Page.navigate obeys the site rules; and the user
// can turn programs' scripts off and on again.
func TestProgramDoorAllowList(t *testing.T) {
	_, p := connect(t, "127.0.0.1:14829", "/bridge")
	c := p.ok(t, "context.create", map[string]any{"agentId": "allowlist"})
	groupID, tabID := intOf(t, c, "groupId"), intOf(t, c, "tabId")
	t.Cleanup(func() { p.call(t, "context.destroy", map[string]any{"groupId": groupID}) })
	p.cdp(t, tabID, "Page.navigate", map[string]any{"url": site + "/page/allowlist"})
	waitReady(t, p, tabID)

	// What Hive's server sends (tools/src/gcu/browser/ in aden-hive/hive).
	for _, m := range []struct {
		method string
		params map[string]any
	}{
		{"Accessibility.enable", nil},
		{"Accessibility.getFullAXTree", nil},
		{"DOM.enable", nil},
		{"DOM.getDocument", nil},
		{"Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved", "x": 5, "y": 5}},
		{"Page.getLayoutMetrics", nil},
		{"Runtime.callFunctionOn", map[string]any{"functionDeclaration": "function () { return 2 }", "executionContextId": 1}},
		{"Emulation.setDeviceMetricsOverride", map[string]any{"width": 800, "height": 600, "deviceScaleFactor": 1, "mobile": false}},
		{"Emulation.clearDeviceMetricsOverride", nil},
		{"Log.enable", nil},
		{"Network.enable", nil},
	} {
		if r := p.call(t, "cdp", map[string]any{"tabId": tabID, "method": m.method, "params": m.params}); strings.Contains(r.Err, "method_not_allowed") {
			t.Errorf("%s was refused: %s", m.method, r.Err)
		}
	}
	if v := p.eval(t, tabID, "1 + 1"); v != float64(2) {
		t.Errorf("Runtime.evaluate = %v", v)
	}
	frame := p.cdp(t, tabID, "Page.getFrameTree", nil)["frameTree"].(map[string]any)["frame"].(map[string]any)["id"]
	for _, m := range []struct {
		method string
		params map[string]any
	}{
		{"Network.loadNetworkResource", map[string]any{"frameId": frame, "url": site + "/page/x", "options": map[string]any{"disableCache": true, "includeCredentials": true}}},
		{"IO.read", map[string]any{"handle": "1"}},
		{"Fetch.enable", nil},
		{"Network.getResponseBody", map[string]any{"requestId": "1"}},
		{"Network.setExtraHTTPHeaders", map[string]any{"headers": map[string]any{}}},
		{"Network.replayXHR", map[string]any{"requestId": "1"}},
		{"Runtime.compileScript", map[string]any{"expression": "1", "sourceURL": "", "persistScript": false}},
		{"Debugger.enable", nil},
		{"Overlay.enable", nil},
	} {
		p.refused(t, "cdp", map[string]any{"tabId": tabID, "method": m.method, "params": m.params}, "method_not_allowed", m.method)
	}

	// Page.navigate to a denied site: refused before it loads.
	if r := bridge.Run(t, "policy", "deny", "denied-by-rule.invalid"); r.Exit != 0 {
		t.Fatalf("policy deny: %s %s", r.Stdout, r.Stderr)
	}
	t.Cleanup(func() { bridge.Run(t, "policy", "remove", "denied-by-rule.invalid") })
	// (Once the extension has the rule: before, the session rules would
	// stop the load, and the tab would show the blocked page.)
	for i := 0; string(bridge.workerEval(t, `chrome.storage.session.get("policyRules").then((s) => !!s.policyRules && s.policyRules.deny.includes("denied-by-rule.invalid"))`)) != "true"; i++ {
		if i == 50 {
			t.Fatal("the extension did not get the rule")
		}
		time.Sleep(100 * time.Millisecond)
	}
	refusedSoon(t, p, tabID, "Page.navigate", map[string]any{"url": "http://denied-by-rule.invalid/"}, "blocked_by_policy", "denied-by-rule.invalid")

	// Programs' scripts off, then on again.
	if r := bridge.Run(t, "policy", "program-evaluate", "off"); r.Exit != 0 {
		t.Fatalf("policy program-evaluate off: %s %s", r.Stdout, r.Stderr)
	}
	t.Cleanup(func() { bridge.Run(t, "policy", "program-evaluate", "on") })
	refusedSoon(t, p, tabID, "Runtime.evaluate", map[string]any{"expression": "document.cookie"}, "method_not_allowed", "program-evaluate on")
	p.refused(t, "cdp", map[string]any{"tabId": tabID, "method": "Runtime.callFunctionOn", "params": map[string]any{"functionDeclaration": "function () { return document.cookie }", "executionContextId": 1}}, "method_not_allowed")
	bridge.Run(t, "policy", "program-evaluate", "on")
	for i := 0; ; i++ {
		r := p.call(t, "cdp", map[string]any{"tabId": tabID, "method": "Runtime.evaluate", "params": map[string]any{"expression": "1 + 1", "returnByValue": true}})
		if r.Err == "" {
			break
		}
		if i == 50 {
			t.Fatalf("Runtime.evaluate after program-evaluate on: %s", r.Err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// refusedSoon waits (the daemon gives the extension changed settings
// within a second) for a cdp command to be refused with code and the
// words in want.
func refusedSoon(t *testing.T, p *peer, tabID int, method string, params map[string]any, code string, want ...string) {
	t.Helper()
	for i := 0; ; i++ {
		r := p.call(t, "cdp", map[string]any{"tabId": tabID, "method": method, "params": params})
		if strings.Contains(r.Err, code) {
			for _, w := range want {
				if !strings.Contains(r.Err, w) {
					t.Errorf("%s refused without %q: %s", method, w, r.Err)
				}
			}
			return
		}
		if i == 50 {
			t.Fatalf("%s was not refused with %s: %+v", method, code, r)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A program may not write the page's markup nor read what it loaded: the
// two together read a denied address with the user's cookies (a
// stylesheet link to it, then its body as a resource), and written markup
// runs script while the user has turned programs' scripts off; nor may it
// paste what the user copied.
func TestProgramDoorWritesNoMarkup(t *testing.T) {
	_, p := connect(t, "127.0.0.1:14829", "/bridge")
	c := p.ok(t, "context.create", map[string]any{"agentId": "markup"})
	groupID, tabID := intOf(t, c, "groupId"), intOf(t, c, "tabId")
	t.Cleanup(func() { p.call(t, "context.destroy", map[string]any{"groupId": groupID}) })
	p.cdp(t, tabID, "Page.navigate", map[string]any{"url": site + "/page/markup"})
	waitReady(t, p, tabID)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(site, "http://"))
	rule := "127.0.0.1:" + port + "/admin/*"
	if r := bridge.Run(t, "policy", "deny", rule); r.Exit != 0 {
		t.Fatalf("policy deny: %s %s", r.Stdout, r.Stderr)
	}
	t.Cleanup(func() { bridge.Run(t, "policy", "remove", rule) })
	if r := bridge.Run(t, "policy", "program-evaluate", "off"); r.Exit != 0 {
		t.Fatalf("policy program-evaluate off: %s %s", r.Stdout, r.Stderr)
	}
	t.Cleanup(func() { bridge.Run(t, "policy", "program-evaluate", "on") })
	refusedSoon(t, p, tabID, "Runtime.evaluate", map[string]any{"expression": "1"}, "method_not_allowed", "program-evaluate")

	doc := p.cdp(t, tabID, "DOM.getDocument", nil)
	root := int(doc["root"].(map[string]any)["nodeId"].(float64))
	h1 := intOf(t, p.cdp(t, tabID, "DOM.querySelector", map[string]any{"nodeId": root, "selector": "h1"}), "nodeId")
	frame := p.cdp(t, tabID, "Page.getFrameTree", nil)["frameTree"].(map[string]any)["frame"].(map[string]any)["id"]
	for _, m := range []struct {
		method string
		params map[string]any
	}{
		{"DOM.setOuterHTML", map[string]any{"nodeId": h1, "outerHTML": `<link rel=stylesheet href="/admin/api"><img src=x onerror="document.title='ran'">`}},
		{"DOM.setAttributeValue", map[string]any{"nodeId": h1, "name": "onclick", "value": "document.title='ran'"}},
		{"DOM.setAttributesAsText", map[string]any{"nodeId": h1, "text": `onmouseover="document.title='ran'"`}},
		{"DOM.setNodeValue", map[string]any{"nodeId": h1, "value": "x"}},
		{"DOM.copyTo", map[string]any{"nodeId": h1, "targetNodeId": root}},
		{"DOM.undo", nil},
		{"Page.setDocumentContent", map[string]any{"frameId": frame, "html": `<img src=x onerror="document.title='ran'">`}},
		{"Page.getResourceContent", map[string]any{"frameId": frame, "url": site + "/admin/api"}},
		{"Page.getResourceTree", nil},
		{"Page.searchInResource", map[string]any{"frameId": frame, "url": site + "/admin/api", "query": "SECRET"}},
		{"Page.captureSnapshot", nil},
		{"Page.setBypassCSP", map[string]any{"enabled": true}},
	} {
		p.refused(t, "cdp", map[string]any{"tabId": tabID, "method": m.method, "params": m.params}, "method_not_allowed", m.method)
	}
	// Scripts of the program's by other routes, while they are off.
	for _, m := range []struct {
		method string
		params map[string]any
	}{
		{"Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": "document.title='ran'"}},
		{"Page.createIsolatedWorld", map[string]any{"frameId": frame}},
		{"Page.reload", map[string]any{"scriptToEvaluateOnLoad": "document.title='ran'"}},
		{"Page.navigate", map[string]any{"url": "javascript:document.title='ran'"}},
		{"Page.navigate", map[string]any{"url": " JavaScript:document.title='ran'"}},
		{"Page.navigate", map[string]any{"url": "data:text/html,<script>document.title='ran'</script>"}},
	} {
		p.refused(t, "cdp", map[string]any{"tabId": tabID, "method": m.method, "params": m.params}, "method_not_allowed", "program-evaluate")
	}
	// A reload would run a script given for new documents.
	p.cdp(t, tabID, "Page.reload", nil)
	p.event(t, "load after the reload", 15*time.Second, func(e map[string]any) bool {
		params, _ := e["params"].(map[string]any)
		return e["type"] == "cdp_event" && e["method"] == "Page.lifecycleEvent" && params["name"] == "load" && int(e["tabId"].(float64)) == tabID
	})
	// Paste: the chords and the editing commands, whatever the spelling.
	for _, e := range []map[string]any{
		{"type": "rawKeyDown", "key": "v", "code": "KeyV", "windowsVirtualKeyCode": 86, "modifiers": 2},
		{"type": "keyDown", "key": "V", "modifiers": 4},
		{"type": "rawKeyDown", "windowsVirtualKeyCode": 86, "modifiers": 10},
		{"type": "rawKeyDown", "key": "Insert", "code": "Insert", "windowsVirtualKeyCode": 45, "modifiers": 8},
		{"type": "keyDown", "key": "Paste"},
		{"type": "rawKeyDown", "key": "a", "commands": []string{"paste"}},
		{"type": "rawKeyDown", "key": "a", "commands": []string{"selectAll", "PasteAndMatchStyle"}},
	} {
		p.refused(t, "cdp", map[string]any{"tabId": tabID, "method": "Input.dispatchKeyEvent", "params": e}, "invalid_argument", "Input.insertText")
	}
	// What Hive sends for a chord passes: Control+A, and its key up.
	for _, e := range []map[string]any{
		{"type": "rawKeyDown", "key": "a", "code": "KeyA", "windowsVirtualKeyCode": 65, "modifiers": 2},
		{"type": "keyUp", "key": "v", "code": "KeyV", "windowsVirtualKeyCode": 86, "modifiers": 2},
	} {
		p.cdp(t, tabID, "Input.dispatchKeyEvent", e)
	}
	// Markup dropped into an editable part goes through Chrome's paste
	// sanitiser: its handlers never run.
	p.cdp(t, tabID, "Page.navigate", map[string]any{"url": site + "/editable"})
	p.event(t, "load of the editable page", 15*time.Second, func(e map[string]any) bool {
		params, _ := e["params"].(map[string]any)
		return e["type"] == "cdp_event" && e["method"] == "Page.lifecycleEvent" && params["name"] == "load" && int(e["tabId"].(float64)) == tabID
	})
	drop := map[string]any{"items": []any{map[string]any{"mimeType": "text/html", "data": `<img src=x onerror="document.title='ran'">`}}, "dragOperationsMask": 1}
	for _, typ := range []string{"dragEnter", "dragOver", "drop"} {
		p.cdp(t, tabID, "Input.dispatchDragEvent", map[string]any{"type": typ, "x": 50, "y": 50, "data": drop})
	}
	time.Sleep(500 * time.Millisecond)
	// Nothing of the program's ran, and the page is as it was served.
	bridge.Run(t, "policy", "program-evaluate", "on")
	for i := 0; ; i++ {
		r := p.call(t, "cdp", map[string]any{"tabId": tabID, "method": "Runtime.evaluate", "params": map[string]any{"expression": "document.title + ' ' + document.querySelectorAll('link').length + ' ' + document.getElementById('ed').innerHTML", "returnByValue": true}})
		if r.Err == "" {
			v := r.Result["result"].(map[string]any)["value"]
			t.Logf("the page after the refusals and the drop: %v", v)
			if s, _ := v.(string); !strings.HasPrefix(s, "markup 0 ") || strings.Contains(s, "onerror") {
				t.Errorf("the page after the refusals: %v, want its own title, no link, no handler", v)
			}
			break
		}
		if i == 50 {
			t.Fatalf("Runtime.evaluate after program-evaluate on: %s", r.Err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
