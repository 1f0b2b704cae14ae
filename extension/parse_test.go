package extension

import (
	"encoding/json"
	"io/fs"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// checkSyntax compiles each file it is given ({name, module, src}) with
// node's vm, which parses without running: a module as a module, the rest
// as classic scripts. It prints the failures as JSON.
const checkSyntax = `
const vm = require("vm");
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  const bad = [];
  for (const f of JSON.parse(input)) {
    try {
      if (f.module) new vm.SourceTextModule(f.src, { identifier: f.name });
      else new vm.Script(f.src, { filename: f.name });
    } catch (e) {
      bad.push(f.name + ": " + e.message);
    }
  }
  console.log(JSON.stringify(bad));
});`

// Every script of the extension parses as what Chrome loads it as: a file
// that imports or is imported is an ES module (where a name declared
// twice is an error, and Chrome then refuses the whole service worker),
// the rest classic scripts (the page and content scripts).
func TestEveryScriptParses(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: install Node.js (Debian: apt-get install nodejs), as .ci/run does")
	}
	graph := moduleImports(t)
	module := map[string]bool{}
	for file, imports := range graph {
		if len(imports) > 0 {
			module[file] = true
		}
		for _, imp := range imports {
			module[imp] = true
		}
	}
	type script struct {
		Name   string `json:"name"`
		Module bool   `json:"module"`
		Src    string `json:"src"`
	}
	var scripts []script
	for file := range graph {
		src, err := fs.ReadFile(FS(), file)
		if err != nil {
			t.Fatal(err)
		}
		scripts = append(scripts, script{file, module[file], string(src)})
	}
	slices.SortFunc(scripts, func(a, b script) int { return strings.Compare(a.Name, b.Name) })
	in, err := json.Marshal(scripts)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "--experimental-vm-modules", "--no-warnings", "-e", checkSyntax)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var bad []string
	if err := json.Unmarshal(out, &bad); err != nil {
		t.Fatalf("node said: %s", out)
	}
	for _, b := range bad {
		t.Error(b)
	}
	if n := len(module); n < 10 {
		t.Errorf("only %d files are taken for modules: the import graph was not read", n)
	}
}
