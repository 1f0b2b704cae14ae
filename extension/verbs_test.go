package extension

import (
	"fmt"
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
	handlerEntry = regexp.MustCompile(`^  "([a-zA-Z]+(?:\.[a-zA-Z]+)*)": "([a-zA-Z]+)\.([a-zA-Z]+)",$`)
	comment      = regexp.MustCompile(`^\s*(//.*)?$`)
)

// genFile is the verb table generated from internal/protocol/verbs.go.
const genFile = "verbs.gen.js"

// jsVerbs parses VERBS of verbs.gen.js: verb -> parameter names. Every
// line of the table is a comment or one entry, so an entry this parser
// would miss fails instead.
func jsVerbs(t *testing.T) map[string][]string {
	t.Helper()
	verbs := map[string][]string{}
	for _, l := range block(t, genFile, "export const VERBS = {", "};") {
		if comment.MatchString(l) {
			continue
		}
		m := verbEntry.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("%s VERBS: %q is not one entry on one line (\"verb\": [\"param\", ...],)", genFile, l)
			continue
		}
		if _, dup := verbs[m[1]]; dup {
			t.Errorf("%s VERBS lists %q twice", genFile, m[1])
		}
		params := []string{}
		for _, p := range strings.Split(m[2], ", ") {
			if p != "" {
				params = append(params, strings.Trim(p, `"`))
			}
		}
		verbs[m[1]] = params
	}
	if len(verbs) == 0 {
		t.Fatalf("%s VERBS lists no verb", genFile)
	}
	return verbs
}

// handlerTable parses one door's table of verbs.gen.js: verb -> its
// handler as [module, function].
func handlerTable(t *testing.T, name string) map[string][2]string {
	t.Helper()
	handlers := map[string][2]string{}
	for _, l := range block(t, genFile, "export const "+name+" = {", "};") {
		if comment.MatchString(l) {
			continue
		}
		m := handlerEntry.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("%s %s: %q is not one entry on one line (\"verb\": \"module.function\",)", genFile, name, l)
			continue
		}
		if _, dup := handlers[m[1]]; dup {
			t.Errorf("%s %s has two handlers for %q", genFile, name, m[1])
		}
		handlers[m[1]] = [2]string{m[2], m[3]}
	}
	return handlers
}

var (
	namespaceImport = regexp.MustCompile(`(?m)^import \* as ([a-zA-Z]+) from "\./(handlers/[a-zA-Z]+\.js)";$`)
	exportedFunc    = `(?m)^export (?:async )?function %s\(`
	localFunc       = `(?m)^(?:async )?function %s\(`
)

// Every verb the extension declares has a handler on at least one door,
// and every handler is declared (dispatch refuses what VERBS lacks, so a
// handler missing from it would be dead). Each handler the generated
// tables name is a function that the module of that name exports, among
// dispatch.js's modules ("local": a function of dispatch.js itself): a
// wrong name in internal/protocol/verbs.go fails here, not in a browser.
func TestVerbsHaveHandlers(t *testing.T) {
	verbs := jsVerbs(t)
	tables := map[string]map[string][2]string{
		"ACTIONS_HANDLERS": handlerTable(t, "ACTIONS_HANDLERS"),
		"PROGRAM_HANDLERS": handlerTable(t, "PROGRAM_HANDLERS"),
	}
	for v := range verbs {
		if _, ok := tables["ACTIONS_HANDLERS"][v]; !ok {
			if _, ok := tables["PROGRAM_HANDLERS"][v]; !ok {
				t.Errorf("VERBS lists %q, which no door handles", v)
			}
		}
	}
	dispatch, err := fs.ReadFile(FS(), "dispatch.js")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, m := range namespaceImport.FindAllStringSubmatch(string(dispatch), -1) {
		files[m[1]] = m[2]
	}
	modules := strings.Join(block(t, "dispatch.js", "const modules = {", "};"), "\n")
	for name, table := range tables {
		for v, h := range table {
			if _, ok := verbs[v]; !ok {
				t.Errorf("%s handles %q, which VERBS does not list", name, v)
			}
			mod, fn := h[0], h[1]
			src, pattern := dispatch, localFunc
			if mod != "local" {
				f, ok := files[mod]
				if !ok {
					t.Errorf("%s: %q's handler %s.%s: dispatch.js has no import * as %s", name, v, mod, fn, mod)
					continue
				}
				if src, err = fs.ReadFile(FS(), f); err != nil {
					t.Fatal(err)
				}
				pattern = exportedFunc
			}
			if !regexp.MustCompile(`\b` + mod + `\b`).MatchString(modules) {
				t.Errorf("%s: %q's handler module %s is not in dispatch.js's modules", name, v, mod)
			}
			if !regexp.MustCompile(fmt.Sprintf(pattern, fn)).Match(src) {
				t.Errorf("%s: %q's handler %s.%s is not a function of that module", name, v, mod, fn)
			}
		}
	}
}

// The program door never reaches what only the actions need: a regression
// here would hand a WebSocket peer the bridge's page scripts, its file
// setting or the whole browser's state.
func TestProgramDoorStaysNarrow(t *testing.T) {
	programs := handlerTable(t, "PROGRAM_HANDLERS")
	for _, v := range []string{"page.run", "cdp.batch", "dom.setFiles", "dom.chooseFiles", "window.create", "window.close", "browser.state", "tab.navigate", "tab.group", "program.call", "websocket.configure", "websocket.status", "command.cancel", "readiness.enable"} {
		if _, ok := programs[v]; ok {
			t.Errorf("the program door handles %q", v)
		}
	}
	for v, h := range programs {
		if h[0] != "programs" {
			t.Errorf("the program door's %q is handled by %s.%s, outside handlers/programs.js, which keeps programs to their own tabs", v, h[0], h[1])
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
