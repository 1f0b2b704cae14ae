package actions

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// maxMethods is the most methods a type of this package may have (issue
// 21: the engine's god object, *run, had 115; steps hand values to each
// other instead of sharing a type's fields).
const maxMethods = 40

// No type of the engine grows back into a god object: the package's own
// source (tests left out) is read and its methods counted by receiver.
func TestNoTypeHasTooManyMethods(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) == 0 {
				continue
			}
			typ := fn.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				count[id.Name]++
			}
		}
	}
	if count["run"] == 0 {
		t.Fatal("no methods of run found: the count reads the wrong files")
	}
	for typ, n := range count {
		if n > maxMethods {
			t.Errorf("%s has %d methods, more than %d: hand values between steps instead of adding to it", typ, n, maxMethods)
		}
	}
}
