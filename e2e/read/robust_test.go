package read

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// Content nested deeper than Chrome's script-result converter goes (100
// levels) reaches the daemon; a DOM deeper than the walk's cap is cut,
// with a warning, instead of failing the read.
func TestExtractReadsDeeplyNestedContent(t *testing.T) {
	t.Parallel()
	res, _ := extractURL(t, "/deep", nil)
	md := str(res, "markdown")
	for _, want := range []string{"DEEP-TOP-TEXT", "DEEP-150-TEXT", "DEEP-AFTER-TEXT"} {
		if !strings.Contains(md, want) {
			t.Errorf("%s missing from markdown:\n%s", want, md)
		}
	}
	if !strings.Contains(str(res, "text"), "DEEP-150-TEXT") {
		t.Errorf("DEEP-150-TEXT missing from text: %s", str(res, "text"))
	}
	// The 1500-deep branch is below the walk's cap of about 1000 levels.
	w, _ := json.Marshal(res["warnings"])
	if strings.Contains(md, "DEEP-1500-TEXT") {
		t.Logf("the 1500-deep text came through (warnings %s)", w)
	} else if !strings.Contains(string(w), "cut short") {
		t.Errorf("content was cut without a warning: %s", w)
	}
	// inspect and locators walk the same page without trouble.
	tab := num(t, res, "tabId")
	call(t, map[string]any{"action": "inspect", "tabId": tab})
	call(t, map[string]any{"action": "wait", "tabId": tab, "text": "DEEP-150-TEXT", "timeoutMs": 5000})
}

// Named elements that shadow window.__bb, document.title and friends, and a
// form whose controls shadow its methods, do not break reading or clicking.
func TestClobberedDOMStillReadsAndClicks(t *testing.T) {
	t.Parallel()
	res, _ := extractURL(t, "/clobber", nil)
	if str(res, "title") != "Clobbered page" {
		t.Errorf("title: %q", str(res, "title"))
	}
	text := str(res, "text")
	for _, want := range []string{"CLOBBER-DIV-TEXT", "Clobber heading", "FORM-FIELD-VALUE", "FORM-PARAGRAPH-TEXT", "Press clobbered", "AFTER-FORM-TEXT"} {
		if !strings.Contains(text, want) {
			t.Errorf("%s missing from text:\n%s", want, text)
		}
	}
	tab := num(t, res, "tabId")

	ins, out := call(t, map[string]any{"action": "inspect", "tabId": tab})
	if str(ins, "title") != "Clobbered page" {
		t.Errorf("inspect title: %q", str(ins, "title"))
	}
	var press, field map[string]any
	for _, e := range list(ins, "elements") {
		switch str(e, "name") {
		case "Press clobbered":
			press = e
		case "Clobber field":
			field = e
		}
	}
	if press == nil || field == nil {
		t.Fatalf("inspect lacks the form's button or field: %s", out)
	}

	call(t, map[string]any{"action": "click", "tabId": tab, "text": "Press clobbered"})
	call(t, map[string]any{"action": "wait", "tabId": tab, "text": "PRESSED-OK", "timeoutMs": 5000})
	// Role locators and refs go through the form too.
	call(t, map[string]any{"action": "click", "tabId": tab, "role": "button", "name": "Press clobbered"})
	call(t, map[string]any{"action": "click", "tabId": tab, "ref": str(press, "ref")})
	call(t, map[string]any{"action": "wait", "tabId": tab, "label": "Clobber field", "timeoutMs": 5000})
}

// A ref names an element of one document only: after a reload the old ref
// is unknown rather than another element of the new page.
func TestRefsDoNotCarryOverToTheNextDocument(t *testing.T) {
	t.Parallel()
	tab := openPage(t, "/clobber")
	ins, _ := call(t, map[string]any{"action": "inspect", "tabId": tab})
	var refs []string
	for _, e := range list(ins, "elements") {
		refs = append(refs, str(e, "ref"))
		if r := str(e, "ref"); len(r) < 7 {
			t.Errorf("ref %q looks like a counter from 1", r)
		}
	}
	if len(refs) == 0 {
		t.Fatal("inspect listed nothing")
	}
	call(t, map[string]any{"action": "open", "tabId": tab, "url": site + "/clobber"})
	ins2, _ := call(t, map[string]any{"action": "inspect", "tabId": tab})
	fresh := map[string]bool{}
	for _, e := range list(ins2, "elements") {
		fresh[str(e, "ref")] = true
	}
	for _, r := range refs {
		if fresh[r] {
			t.Errorf("ref %s was given out again in the new document", r)
		}
	}
	failCode(t, map[string]any{"action": "click", "tabId": tab, "ref": refs[0]}, protocol.CodeElementNotFound)
}

// Fields that are passwords in all but type — masked with
// -webkit-text-security, autocomplete current-password or one-time-code,
// card fields by name or id — never show their values.
func TestExtractAndInspectNeverReadMaskedOrCardFields(t *testing.T) {
	t.Parallel()
	res, out := extractURL(t, "/masked", nil)
	tab := num(t, res, "tabId")
	_, inspectOut := call(t, map[string]any{"action": "inspect", "tabId": tab})
	for _, secret := range []string{"MASKED-SECRET-1", "AUTOCOMPLETE-SECRET-2", "CCNUM-SECRET-3", "CARDCVC-SECRET-4",
		"SECCODE-SECRET-5", "OTP-SECRET-6", "CREDIT-SECRET-7", "TEXTAREA-SECRET-8", "MASKED-TYPED-9"} {
		if strings.Contains(out, secret) {
			t.Errorf("extract leaked %s", secret)
		}
		if strings.Contains(inspectOut, secret) {
			t.Errorf("inspect leaked %s", secret)
		}
	}
	if !strings.Contains(str(res, "text"), "VISIBLE-NICK") {
		t.Errorf("an ordinary field's value is what a person sees: %s", str(res, "text"))
	}
	if !strings.Contains(inspectOut, "Masked PIN") {
		t.Errorf("inspect lost the masked field itself: %s", inspectOut)
	}
}

// A parser-blocking script that never arrives keeps the page loading
// forever: page scripts still run at once (they do not wait for
// document_idle), so locators, inspect and extract answer.
func TestReadingAPageStuckOnAScript(t *testing.T) {
	t.Parallel()
	ws := workspace(t)
	// 6 s: the open waits for a load that never ends until near its
	// deadline, and on a loaded 2-core machine 3 s did not leave it time
	// to make the tab as well (seen once, with four busy loops running).
	open := bridge.Call(t, map[string]any{"action": "open", "url": site + "/hang", "browserWorkspaceId": ws, "timeoutMs": 6000})
	if open.JSON == nil {
		t.Fatalf("open: %s %s", open.Stdout, open.Stderr)
	}
	tab := num(t, open.JSON, "tabId")
	start := time.Now()
	call(t, map[string]any{"action": "wait", "tabId": tab, "text": "BEFORE-HANG-TEXT", "timeoutMs": 5000})
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("locating on a loading page took %s", d)
	}
	ins, _ := call(t, map[string]any{"action": "inspect", "tabId": tab, "timeoutMs": 5000})
	found := false
	for _, e := range list(ins, "elements") {
		found = found || str(e, "name") == "Press before hang"
	}
	if !found {
		t.Errorf("inspect on a loading page lacks the button: %v", ins)
	}
	res, _ := call(t, map[string]any{"action": "extract", "tabId": tab, "timeoutMs": 6000})
	if !strings.Contains(str(res, "text"), "BEFORE-HANG-TEXT") || strings.Contains(str(res, "text"), "AFTER-HANG-TEXT") {
		t.Errorf("extract of the loading page: %s", str(res, "text"))
	}
	w, _ := json.Marshal(res["warnings"])
	if !strings.Contains(string(w), "still loading") {
		t.Errorf("no warning that the page was still loading: %s", w)
	}
}

// A link inside a closed shadow root is the element under its own point:
// the click goes to it with no "covered by" warning.
func TestClickInAClosedShadowRootIsNotObscured(t *testing.T) {
	t.Parallel()
	tab := openPage(t, "/shadow")
	res, _ := call(t, map[string]any{"action": "click", "tabId": tab, "text": "a closed link"})
	w, _ := json.Marshal(res["warnings"])
	if strings.Contains(string(w), "covered") {
		t.Errorf("the closed root's own link was reported covered: %s", w)
	}
	if !strings.HasSuffix(str(res, "url"), "/closed-link") {
		t.Errorf("the click did not follow the link: %v", res)
	}
}

// Reading a label's text does not clone it (cloning runs custom element
// constructors, page code, in the page).
func TestLabelTextRunsNoPageCode(t *testing.T) {
	t.Parallel()
	tab := openPage(t, "/labels")
	call(t, map[string]any{"action": "wait", "tabId": tab, "text": "made 1", "timeoutMs": 5000})
	ins, out := call(t, map[string]any{"action": "inspect", "tabId": tab})
	found := false
	for _, e := range list(ins, "elements") {
		if str(e, "tag") == "input" {
			found = true
			// inspect leaves a label out when it is the name.
			if label := firstOf(str(e, "label"), str(e, "name")); label != "Full name" {
				t.Errorf("label of the field: %q, want %q (without the button's text)", label, "Full name")
			}
		}
	}
	if !found {
		t.Fatalf("no field: %s", out)
	}
	call(t, map[string]any{"action": "wait", "tabId": tab, "label": "Full name", "timeoutMs": 5000})
	res, _ := call(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"text"}})
	if !strings.Contains(str(res, "text"), "made 1") {
		t.Errorf("reading labels constructed custom elements: %s", str(res, "text"))
	}
}

// When the page copies the upload marker onto another element, the bridge
// cannot tell its input apart and sets no files at all.
func TestUploadRefusesACopiedMarker(t *testing.T) {
	t.Parallel()
	tab := openPage(t, "/upload-copy")
	path := filepath.Join(t.TempDir(), "note.txt")
	if err := os.WriteFile(path, []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	msg := failCode(t, map[string]any{"action": "upload", "tabId": tab, "selector": "#file", "paths": []string{path}}, protocol.CodeBlockedByPolicy)
	if !strings.Contains(msg, "copied") {
		t.Errorf("the error does not say what happened: %q", msg)
	}
	res, _ := call(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"text"}})
	if !strings.Contains(str(res, "text"), "no files") {
		t.Errorf("files were set: %s", str(res, "text"))
	}
}
