package read

import (
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func TestInspectListsInteractiveElements(t *testing.T) {
	t.Parallel()
	tab := openPage(t, "/inspect")
	// Let the cross-origin frame load.
	call(t, map[string]any{"action": "wait", "tabId": tab, "text": "Cross frame button", "timeoutMs": 10000})
	res, out := call(t, map[string]any{"action": "inspect", "tabId": tab})
	if num(t, res, "tabId") != tab || str(res, "title") != "Controls" {
		t.Errorf("tab fields: %v", res)
	}
	byName := map[string]map[string]any{}
	for _, e := range list(res, "elements") {
		byName[str(e, "name")] = e
	}
	want := []struct {
		name, tag, role string
	}{
		// The role a tag has anyway (a link, a button, a text field, a
		// select's combobox) is left out: inspect names only what the tag
		// does not say.
		{"Next page", "a", ""},
		{"Press me", "button", ""},
		{"Email", "input", ""},
		{"Colour", "select", ""},
		{"Agree to terms", "input", ""},
		{"Role button", "div", "button"},
		{"Disabled button", "button", ""},
		{"Cross frame button", "button", ""},
	}
	for _, w := range want {
		e, ok := byName[w.name]
		if !ok {
			t.Errorf("inspect lacks %q: %s", w.name, out)
			continue
		}
		if e["tag"] != w.tag || str(e, "role") != w.role {
			t.Errorf("%q: tag %v role %v, want %s %s", w.name, e["tag"], e["role"], w.tag, w.role)
		}
		for _, k := range []string{"ref", "selector"} {
			if str(e, k) == "" {
				t.Errorf("%q has no %s: %v", w.name, k, e)
			}
		}
		if r := rectOf(e); r[2] <= 0 {
			t.Errorf("%q has no rect: %v", w.name, e)
		}
	}
	// A label equal to the name is the name.
	if e := byName["Email"]; e != nil && (e["placeholder"] != "you@example.com" || firstOf(str(e, "label"), str(e, "name")) != "Email") {
		t.Errorf("email field: %v", e)
	}
	if e := byName["Disabled button"]; e != nil && e["enabled"] != false {
		t.Errorf("a disabled button is enabled: %v", e)
	}
	// The top frame's elements have no frameId (their refs name no frame);
	// visible and enabled are said only when false.
	if e := byName["Press me"]; e != nil && (e["enabled"] != nil || e["visible"] != nil || e["frameId"] != nil) {
		t.Errorf("press me: %v", e)
	}
	for _, text := range []string{"Edit here", "Click div", "Pointer area"} {
		found := false
		for _, e := range list(res, "elements") {
			found = found || strings.Contains(str(e, "name")+" "+str(e, "text"), text)
		}
		if !found {
			t.Errorf("inspect lacks the element with %q", text)
		}
	}
	if strings.Contains(out, "Plain paragraph") || strings.Contains(out, "Invisible button") {
		t.Errorf("inspect lists what is not interactive or not visible")
	}
	frameBtn := byName["Cross frame button"]
	if frameBtn == nil {
		t.Fatal("no frame button")
	}
	if num(t, frameBtn, "frameId") <= 0 || !strings.HasPrefix(str(frameBtn, "ref"), "f") {
		t.Errorf("a frame's element needs its frameId and a frame ref: %v", frameBtn)
	}
	if rect := rectOf(frameBtn); rect[1] < 400 {
		t.Errorf("the frame button's rect is not in the top frame's viewport: %v", rect)
	}

	// Refs work in later actions, in the top frame and in a frame.
	call(t, map[string]any{"action": "click", "tabId": tab, "ref": str(byName["Press me"], "ref")})
	call(t, map[string]any{"action": "wait", "tabId": tab, "text": "Pressed!", "timeoutMs": 5000})
	call(t, map[string]any{"action": "click", "tabId": tab, "ref": str(frameBtn, "ref")})
	call(t, map[string]any{"action": "wait", "tabId": tab, "text": "Cross clicked", "timeoutMs": 5000})
}

func TestInspectContinuesPastTheBudget(t *testing.T) {
	t.Parallel()
	tab := openPage(t, "/big")
	whole, _ := call(t, map[string]any{"action": "inspect", "tabId": tab, "maxChars": 1000000})
	all := list(whole, "elements")
	if len(all) < 400 {
		t.Fatalf("the big page has %d links in inspect", len(all))
	}
	var refs []string
	offset := 0
	for calls := 0; ; calls++ {
		in := map[string]any{"action": "inspect", "tabId": tab, "maxChars": 5000}
		if offset > 0 {
			in["offset"] = offset
		}
		res, _ := call(t, in)
		if size := len(compact(res)); size > 5000*115/100 {
			t.Errorf("inspect window of %d characters for a budget of 5000", size)
		}
		for _, e := range list(res, "elements") {
			refs = append(refs, str(e, "ref"))
		}
		next, more := res["nextOffset"]
		if !more {
			break
		}
		if calls > 200 {
			t.Fatal("no end")
		}
		offset = int(next.(float64))
	}
	if len(refs) != len(all) {
		t.Fatalf("windows gave %d elements, the whole list has %d", len(refs), len(all))
	}
	for i, e := range all {
		if refs[i] != str(e, "ref") {
			t.Fatalf("element %d: ref %s in windows, %s in the whole list", i, refs[i], e["ref"])
		}
	}
}

func TestWaitConditions(t *testing.T) {
	t.Parallel()
	tab := openPage(t, "/wait")
	start := time.Now()
	res, _ := call(t, map[string]any{"action": "wait", "tabId": tab, "selector": "p.late", "timeoutMs": 10000})
	if time.Since(start) < 500*time.Millisecond {
		t.Errorf("wait returned before the element arrived")
	}
	if num(t, res, "tabId") != tab || str(res, "title") != "Things arrive" {
		t.Errorf("wait result: %v", res)
	}
	for _, in := range []map[string]any{
		{"text": "Arrived text"},
		{"role": "button", "name": "Arrived button"},
		{"label": "Arrived field"},
		{"placeholder": "arrived placeholder"},
		{"urlContains": "stage=done"},
		{"load": true},
	} {
		in["action"], in["tabId"], in["timeoutMs"] = "wait", tab, 5000
		call(t, in)
	}
	start = time.Now()
	msg := failCode(t, map[string]any{"action": "wait", "tabId": tab, "role": "button", "name": "Never there", "timeoutMs": 2000}, protocol.CodeTimeout)
	if !strings.Contains(msg, `role "button" named "Never there"`) {
		t.Errorf("the timeout does not name the condition: %q", msg)
	}
	if took := time.Since(start); took > 4*time.Second {
		t.Errorf("timeoutMs 2000, failed after %s", took)
	}
	msg = failCode(t, map[string]any{"action": "wait", "tabId": tab, "urlContains": "nowhere", "timeoutMs": 1500}, protocol.CodeTimeout)
	if !strings.Contains(msg, `"nowhere"`) {
		t.Errorf("the timeout does not name the condition: %q", msg)
	}
	failCode(t, map[string]any{"action": "wait", "tabId": tab}, protocol.CodeInvalidArgument)
	failCode(t, map[string]any{"action": "wait", "tabId": tab, "load": true, "text": "x"}, protocol.CodeInvalidArgument)
}
