package tool

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// Every description in the contract (a jsonschema tag: the MCP schema's
// and the CLI help's words) is a short sentence a model or a person can
// act on, not a word or two ("Px.", "Undo.") that leaves them guessing.
func TestDescriptionsAreSentences(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(node ast.Node) bool {
			field, ok := node.(*ast.Field)
			if !ok || field.Tag == nil {
				return true
			}
			tag, err := strconv.Unquote(field.Tag.Value)
			if err != nil {
				t.Fatalf("%s: %v", fset.Position(field.Pos()), err)
			}
			doc, ok := reflect.StructTag(tag).Lookup("jsonschema")
			if !ok {
				return true
			}
			n++
			if len(strings.Fields(doc)) < 3 {
				t.Errorf("%s: the description %q is too short; say in a short sentence what the field means", fset.Position(field.Pos()), doc)
			}
			return true
		})
	}
	if n < 50 {
		t.Fatalf("found only %d descriptions; the test no longer reads the contract", n)
	}
}
