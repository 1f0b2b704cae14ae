package actions

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"testing"
)

// engineFiles are the engine: the steps every action is composed of (the
// target and its guards, locate, act, settle, observe) and the state they
// share (Env's read cache, download book, hand-offs, workspace locks).
// They may use one another's names, and no action's.
var engineFiles = []string{
	"actionable.go", "args.go", "ask.go", "browser.go", "dialogs.go",
	"downloadbook.go", "geometry.go", "handoffs.go", "input.go",
	"input_actions.go", "irreversible.go", "locate.go", "ownership.go",
	"page.go", "react.go", "readiness.go", "reads.go", "run.go",
	"searchurl.go", "seen.go", "steps.go", "tablock.go", "workspacelock.go",
	"report.go", "recordrules.go", "keptreads.go", "reach.go", "camera.go",
	"pagechange.go",
}

// actionFiles hold the actions, each registered in its file's init. An
// action may use the engine and compose another action (extract opens
// its URL as open does, fill sets fields as type and select do); the
// engine may not use an action's names.
var actionFiles = []string{
	"click.go", "close.go", "dom_actions.go", "downloads.go", "drag.go",
	"evaluate.go", "extract.go", "fill.go", "find.go", "handoff.go",
	"hover.go", "inspect.go", "navigation.go", "open.go", "pdf.go",
	"press.go", "record.go", "screenshot.go", "search.go", "status.go",
	"type.go", "upload.go", "viewport.go", "wait.go",
	"emulate.go", "performance.go",
	"changes.go", // extract's reads compared (changes: true)
}

// The engine does not reach into the actions: a name an engine file uses
// is defined in an engine file. Before the split, the steps used type.go's
// both, run.go used downloads.go's book, readiness used extract.go's
// tabInfo: every action file was then in one cycle with the engine, and
// a change to an action could break every other. A helper two actions
// share moves to an engine file (input_actions.go for input, page.go for
// the page).
//
// The package is type-checked from its own files only: the packages it
// imports stand in as empty ones, which is enough to resolve this
// package's names (a selector on an imported type stays unresolved and
// is not counted).
func TestTheEngineUsesNoActionsNames(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		engine, action := slices.Contains(engineFiles, name), slices.Contains(actionFiles, name)
		if engine == action {
			t.Errorf("%s is in neither or both of engineFiles and actionFiles (engine_test.go): add it to one — a file that registers an action is an action's", name)
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if engine && registers(f) {
			t.Errorf("engine file %s registers an action: move the action to a file of its own, listed in actionFiles", name)
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{
		Importer: emptyImports{},
		Error:    func(error) {}, // the imports are empty: their names are unresolved
	}
	pkg, _ := conf.Check("actions", fset, files, info)
	crossing := 0
	var found []string
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		user, owner := path.Base(fset.Position(id.Pos()).Filename), path.Base(fset.Position(obj.Pos()).Filename)
		if user == owner {
			continue
		}
		crossing++
		if slices.Contains(engineFiles, user) && slices.Contains(actionFiles, owner) {
			found = append(found, user+" uses "+obj.Name()+" of "+owner)
		}
	}
	// The check can only fail if names resolve across files at all.
	if crossing < 100 {
		t.Fatalf("only %d uses of another file's names resolved: the check reads the wrong files", crossing)
	}
	sort.Strings(found)
	for _, f := range slices.Compact(found) {
		t.Errorf("engine file %s: move the name to an engine file", f)
	}
}

// registers says whether f's init registers an action.
func registers(f *ast.File) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "register" {
				found = true
			}
		}
		return !found
	})
	return found
}

// emptyImports stands in for the importer: each imported package is an
// empty one of its path's last name.
type emptyImports struct{}

func (emptyImports) Import(p string) (*types.Package, error) {
	pkg := types.NewPackage(p, path.Base(p))
	pkg.MarkComplete()
	return pkg, nil
}
