package extension

import (
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The forms of an ES module import the extension's files may use: a
// static import or re-export (over several lines, too), a bare import, a
// dynamic import of a string literal.
var (
	importFrom    = regexp.MustCompile(`(?m)^[ \t]*(?:import|export)\b[^;'"]*?\bfrom[ \t]*["']([^"']+)["']`)
	importBare    = regexp.MustCompile(`(?m)^[ \t]*import[ \t]*["']([^"']+)["']`)
	importDynamic = regexp.MustCompile(`\bimport\(\s*["']([^"']+)["']\s*\)`)
	// Any line that starts an import, and any dynamic import: each must be
	// one the forms above read, so an import this parser would miss fails
	// instead of hiding an edge.
	importStart = regexp.MustCompile(`(?m)^[ \t]*import[ \t{*"']`)
	importCall  = regexp.MustCompile(`\bimport\(`)
)

// moduleImports reads the extension's JavaScript files: file -> the files
// it imports, as paths inside FS(). It fails the test on an import it
// cannot read or resolve.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	graph := map[string][]string{}
	err := fs.WalkDir(FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") {
			return err
		}
		b, err := fs.ReadFile(FS(), p)
		if err != nil {
			return err
		}
		src := string(b)
		var specs []string
		for _, re := range []*regexp.Regexp{importFrom, importBare, importDynamic} {
			for _, m := range re.FindAllStringSubmatch(src, -1) {
				specs = append(specs, m[1])
			}
		}
		if starts, read := len(importStart.FindAllString(src, -1)), len(importBare.FindAllString(src, -1))+countImportFrom(src); starts != read {
			t.Errorf("%s: %d lines start an import but %d were read; write each as import … from \"./file.js\"", p, starts, read)
		}
		if calls, read := len(importCall.FindAllString(src, -1)), len(importDynamic.FindAllString(src, -1)); calls != read {
			t.Errorf("%s: a dynamic import() of something other than a string literal: its module cannot be checked", p)
		}
		graph[p] = []string{}
		for _, s := range specs {
			if !strings.HasPrefix(s, "./") && !strings.HasPrefix(s, "../") {
				t.Errorf("%s imports %q: the extension imports only its own files, by a relative path", p, s)
				continue
			}
			target := path.Join(path.Dir(p), s)
			if _, err := fs.Stat(FS(), target); err != nil {
				t.Errorf("%s imports %q, which is not a file of the extension (%s)", p, s, target)
				continue
			}
			if !slices.Contains(graph[p], target) {
				graph[p] = append(graph[p], target)
			}
		}
		slices.Sort(graph[p])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(graph) == 0 {
		t.Fatal("no JavaScript file found in the extension")
	}
	return graph
}

// countImportFrom counts the static imports (not re-exports) importFrom
// reads.
func countImportFrom(src string) int {
	n := 0
	for _, m := range importFrom.FindAllString(src, -1) {
		if strings.HasPrefix(strings.TrimLeft(m, " \t"), "import") {
			n++
		}
	}
	return n
}

// cycles returns each import cycle of graph once, as the files around it
// from the first one visited back to it.
func cycles(graph map[string][]string) [][]string {
	const (
		unseen = iota
		open
		done
	)
	state := map[string]int{}
	var stack []string
	var found [][]string
	var visit func(string)
	visit = func(f string) {
		state[f] = open
		stack = append(stack, f)
		for _, g := range graph[f] {
			switch state[g] {
			case unseen:
				visit(g)
			case open:
				i := slices.Index(stack, g)
				found = append(found, append(slices.Clone(stack[i:]), g))
			}
		}
		stack = stack[:len(stack)-1]
		state[f] = done
	}
	files := make([]string, 0, len(graph))
	for f := range graph {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		if state[f] == unseen {
			visit(f)
		}
	}
	return found
}

// The extension's modules form a tree (a DAG): background.js wires the
// transports to the dispatcher, and handlers reach the daemon through a
// port, never by importing a transport. In a cycle one module runs
// before a module it imports has run, so a top-level use of an import
// fails (or must be made lazy), depending on which file Chrome loads
// first.
func TestModulesImportNoCycle(t *testing.T) {
	graph := moduleImports(t)
	for _, c := range cycles(graph) {
		t.Errorf("import cycle: %s", strings.Join(c, " → "))
	}
	if len(graph["background.js"]) == 0 {
		t.Errorf("background.js imports nothing: the import parser is broken")
	}
}

// Handlers and the dispatcher know no transport: what they ask the
// daemon goes through daemon.js, which background.js plugs the native
// transport into. transport/inflight.js is not a transport but the
// registry of each connection's commands, which browser.state reports.
func TestHandlersKnowNoTransport(t *testing.T) {
	graph := moduleImports(t)
	for f, imports := range graph {
		if !strings.HasPrefix(f, "handlers/") && f != "dispatch.js" {
			continue
		}
		for _, g := range imports {
			if strings.HasPrefix(g, "transport/") && g != "transport/inflight.js" {
				t.Errorf("%s imports %s: handlers reach the daemon through daemon.js, and background.js wires the transports", f, g)
			}
		}
	}
}

// The cycle finder itself: a test of the test, on graphs whose cycles
// are known.
func TestCyclesFinder(t *testing.T) {
	for _, tc := range []struct {
		graph map[string][]string
		want  int
	}{
		{map[string][]string{"a": {"b"}, "b": {"c"}, "c": {}}, 0},
		{map[string][]string{"a": {"b", "c"}, "b": {"c"}, "c": {}}, 0},
		{map[string][]string{"a": {"a"}}, 1},
		{map[string][]string{"a": {"b"}, "b": {"c"}, "c": {"a"}}, 1},
		{map[string][]string{"a": {"b", "d"}, "b": {"c"}, "c": {"a"}, "d": {"e"}, "e": {"d"}}, 2},
	} {
		if got := cycles(tc.graph); len(got) != tc.want {
			t.Errorf("cycles(%v) = %v, want %d", tc.graph, got, tc.want)
		}
	}
}
