package extension

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// block returns the lines of file between the line start and the next line
// "end" (both excluded), failing the test when either is missing.
func block(t *testing.T, file, start, end string) []string {
	t.Helper()
	b, err := fs.ReadFile(FS(), file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	i := slices.Index(lines, start)
	if i < 0 {
		t.Fatalf("%s has no line %q", file, start)
	}
	n := slices.Index(lines[i+1:], end)
	if n < 0 {
		t.Fatalf("%s: the block after %q does not end with a line %q", file, start, end)
	}
	return lines[i+1 : i+1+n]
}

var (
	verbEntry    = regexp.MustCompile(`^  "([a-zA-Z]+(?:\.[a-zA-Z]+)*)": \[((?:"[a-zA-Z]+"(?:, "[a-zA-Z]+")*)?)\],$`)
	handlerEntry = regexp.MustCompile(`^  "([a-zA-Z]+(?:\.[a-zA-Z]+)*)": [a-zA-Z]+(?:\.[a-zA-Z]+)?,$`)
	comment      = regexp.MustCompile(`^\s*(//.*)?$`)
)

// Doors, as VERBS's section comments name them ("// === Both doors",
// "// === Program door only", "// === Actions door only").
const (
	doorBoth    = "both"
	doorProgram = "program"
	doorActions = "actions"
)

var section = regexp.MustCompile(`^  // === (Both doors|Program door only|Actions door only)\b`)

// jsVerbs parses protocol.js's VERBS: verb -> parameter names, and verb ->
// the door its section says. Every line of the table is a comment or one
// entry, so an entry this parser would miss fails instead.
func jsVerbs(t *testing.T) (map[string][]string, map[string]string) {
	t.Helper()
	verbs := map[string][]string{}
	doors := map[string]string{}
	door := ""
	for _, l := range block(t, "protocol.js", "export const VERBS = {", "};") {
		if m := section.FindStringSubmatch(l); m != nil {
			door = map[string]string{"Both doors": doorBoth, "Program door only": doorProgram, "Actions door only": doorActions}[m[1]]
			continue
		}
		if comment.MatchString(l) {
			continue
		}
		m := verbEntry.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("protocol.js VERBS: %q is not one entry on one line (\"verb\": [\"param\", ...],)", l)
			continue
		}
		if _, dup := verbs[m[1]]; dup {
			t.Errorf("protocol.js VERBS lists %q twice", m[1])
		}
		if door == "" {
			t.Errorf("protocol.js VERBS lists %q before any door section (// === Both doors ===, ...)", m[1])
		}
		params := []string{}
		for _, p := range strings.Split(m[2], ", ") {
			if p != "" {
				params = append(params, strings.Trim(p, `"`))
			}
		}
		verbs[m[1]] = params
		doors[m[1]] = door
	}
	if len(verbs) == 0 {
		t.Fatal("protocol.js VERBS lists no verb")
	}
	return verbs, doors
}

// handlerTable parses one handler table of dispatch.js.
func handlerTable(t *testing.T, start string) map[string]bool {
	t.Helper()
	handlers := map[string]bool{}
	for _, l := range block(t, "dispatch.js", start, "};") {
		if comment.MatchString(l) {
			continue
		}
		m := handlerEntry.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("dispatch.js %s: %q is not one entry on one line (\"verb\": handler,)", start, l)
			continue
		}
		if handlers[m[1]] {
			t.Errorf("dispatch.js %s has two handlers for %q", start, m[1])
		}
		handlers[m[1]] = true
	}
	return handlers
}

// Every verb the extension declares has a handler in dispatch.js on the
// doors its section of VERBS names, and on no other; every handler is
// declared: dispatch refuses what VERBS lacks, so a handler missing from
// it would be dead, and a verb without a handler unknown. This is also
// what keeps the program door from reaching the actions' verbs.
func TestVerbsHaveHandlers(t *testing.T) {
	verbs, doors := jsVerbs(t)
	tables := map[string]map[string]bool{
		doorActions: handlerTable(t, "const actions = {"),
		doorProgram: handlerTable(t, "const programVerbs = {"),
	}
	for v, door := range doors {
		for name, table := range tables {
			want := door == doorBoth || door == name
			if table[v] && !want {
				t.Errorf("the %s door handles %q, which VERBS lists under the %s door only", name, v, door)
			}
			if !table[v] && want {
				t.Errorf("VERBS lists %q on the %s door, which has no handler for it in dispatch.js", v, name)
			}
		}
	}
	for name, table := range tables {
		for v := range table {
			if _, ok := verbs[v]; !ok {
				t.Errorf("dispatch.js's %s door handles %q, which VERBS in protocol.js does not list", name, v)
			}
		}
	}
}

// The program door never reaches what only the actions need: a regression
// here would hand a WebSocket peer the bridge's page scripts, its file
// setting or the whole browser's state.
func TestProgramDoorStaysNarrow(t *testing.T) {
	programs := handlerTable(t, "const programVerbs = {")
	for _, v := range []string{"page.run", "cdp.batch", "dom.setFiles", "dom.chooseFiles", "window.create", "window.close", "browser.state", "tab.navigate", "tab.group", "program.call", "websocket.configure", "websocket.status", "command.cancel", "readiness.enable"} {
		if programs[v] {
			t.Errorf("the program door handles %q", v)
		}
	}
}

// cdpMethod finds the "Domain.method" strings in Go whose domain is a CDP
// domain (a file name such as "README.md" is not a method).
var cdpMethod = regexp.MustCompile(`"((?:Accessibility|Animation|Audits|Browser|CSS|CacheStorage|DOM|DOMDebugger|DOMSnapshot|DOMStorage|Debugger|DeviceOrientation|Emulation|Fetch|HeadlessExperimental|IO|IndexedDB|Input|Inspector|Log|Memory|Network|Overlay|Page|Performance|Profiler|Runtime|Security|ServiceWorker|Storage|SystemInfo|Target|Tracing)\.[a-z][a-zA-Z]*)"`)

// The native door's CDP allow-list is exactly the methods the daemon's Go
// code sends: a method the actions start to send fails here, not in a
// user's browser, and one they stopped sending leaves the list.
func TestCDPAllowListMatchesGo(t *testing.T) {
	allowed := map[string]bool{}
	entry := regexp.MustCompile(`^  "([A-Za-z]+\.[a-zA-Z]+)",$`)
	for _, l := range block(t, "handlers/cdp.js", "const ACTIONS_METHODS = new Set([", "]);") {
		if comment.MatchString(l) {
			continue
		}
		m := entry.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("handlers/cdp.js ACTIONS_METHODS: %q is not one method on one line", l)
			continue
		}
		allowed[m[1]] = true
	}
	// The Go side: every non-test file under internal/, except the test
	// harness's own CDP client (it talks to Chromium directly, not through
	// the extension).
	used := map[string][]string{}
	root := filepath.Join("..", "internal")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "browsertest" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range cdpMethod.FindAllSubmatch(b, -1) {
			used[string(m[1])] = append(used[string(m[1])], p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(used) == 0 {
		t.Fatal("found no CDP method in the Go code under internal/: the test no longer sees how the actions name them; teach it")
	}
	var missing, unused []string
	for m, files := range used {
		if !allowed[m] {
			missing = append(missing, m+" (sent by "+strings.Join(slices.Compact(files), ", ")+")")
		}
	}
	for m := range allowed {
		if used[m] == nil {
			unused = append(unused, m)
		}
	}
	sort.Strings(missing)
	sort.Strings(unused)
	for _, m := range missing {
		t.Errorf("the Go code sends CDP method %s, which handlers/cdp.js ACTIONS_METHODS does not allow", m)
	}
	for _, m := range unused {
		t.Errorf("handlers/cdp.js ACTIONS_METHODS allows %s, which no Go code under internal/ sends: drop it", m)
	}
}
