package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	contract "github.com/browser-bridge/browser-bridge/internal/tool"
)

var update = flag.Bool("update", false, "rewrite testdata/tools*.json from the current tool definitions")

// toolBudget is the most the tool list may take, in characters of its
// JSON: every character is in every request of every agent session.
const toolBudget = 10000

// TestNestedFieldsAreNamed fails when an object parameter gains a field
// its description does not name: the schema describes nested fields only
// through their parent.
func TestNestedFieldsAreNamed(t *testing.T) {
	for _, f := range contract.Fields() {
		nested := f.Type
		for nested.Kind() == reflect.Pointer || nested.Kind() == reflect.Slice {
			nested = nested.Elem()
		}
		if nested.Kind() != reflect.Struct {
			continue
		}
		for _, sub := range contract.FieldsOf(nested) {
			if !regexp.MustCompile(`\b` + regexp.QuoteMeta(sub.Name) + `\b`).MatchString(f.Doc) {
				t.Errorf("field %s.%s is not described: name it in the jsonschema tag of %q (internal/tool)", f.Name, sub.Name, f.Name)
			}
		}
	}
}

func TestToolListBudget(t *testing.T) {
	for _, mode := range []string{ModeSingle, ModeSplit} {
		n := len(toolListJSON(t, mode))
		t.Logf("%s: %d characters of tool definitions", mode, n)
		if mode == ModeSingle && n > toolBudget {
			t.Errorf("the tool list takes %d characters, over the budget of %d: shorten descriptions in describe.go", n, toolBudget)
		}
	}
}

// TestToolListSnapshot keeps the served tool list in testdata, so every
// change to what a model sees shows up in review. After an intended
// change: go test ./internal/mcpserver -run Snapshot -update
func TestToolListSnapshot(t *testing.T) {
	for mode, file := range map[string]string{ModeSingle: "tools.json", ModeSplit: "tools-split.json"} {
		var buf bytes.Buffer
		json.Indent(&buf, toolListJSON(t, mode), "", "  ")
		got := append(buf.Bytes(), '\n')
		path := filepath.Join("testdata", file)
		if *update {
			os.MkdirAll("testdata", 0o755)
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (create it with -update)", err)
		}
		if string(got) != string(want) {
			t.Errorf("the %s tool list differs from %s; if intended, run go test ./internal/mcpserver -run Snapshot -update\n%s", mode, path, firstDiff(string(want), string(got)))
		}
	}
}

// toolListJSON is the tool list as a client receives it.
func toolListJSON(t *testing.T, mode string) []byte {
	t.Helper()
	cs := connect(t, Options{Dial: (&fakeDaemon{}).dial, Tools: mode}, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.Tools)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// firstDiff shows where two texts part, with a few lines of context.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	from := max(0, i-3)
	return fmt.Sprintf("from line %d\nwant:\n%s\ngot:\n%s", i+1, strings.Join(w[from:min(len(w), i+4)], "\n"), strings.Join(g[from:min(len(g), i+4)], "\n"))
}
