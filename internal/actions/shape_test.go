package actions

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// maxMethods is the most methods a type of internal/ may have: the engine
// was once one type with 115; steps hand values to each other instead of
// sharing a type's fields.
const maxMethods = 40

// overMaxMethods are the types known to have more than maxMethods, each
// with the most it may have: a ratchet, so that none grows while it waits
// to be split, and the entry goes once it is within maxMethods.
// None is today: the steps of a run, once views of *run each carrying
// run's methods beside their own, hold what they need (run.go).
var overMaxMethods = map[string]int{}

// No type of internal/ grows into a god object. Every package's own
// source (tests and generated files left out) is read and its methods
// counted by receiver; a type that embeds another of its package counts
// that one's methods too, since it carries them (a wrapper struct{*run}
// is the run under another name, not a split of it).
func TestNoTypeHasTooManyMethods(t *testing.T) {
	count := map[string]int{}       // "pkg.Type" → own methods
	embeds := map[string][]string{} // "pkg.Type" → embedded types of its package
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || strings.HasPrefix(name, ".") && name != ".." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		// A type is named by its package's folder under internal/.
		rel, err := filepath.Rel("..", filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel) + "."
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil && len(d.Recv.List) > 0 {
					if name := typeName(d.Recv.List[0].Type); name != "" {
						count[pkg+name]++
					}
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, field := range st.Fields.List {
						if len(field.Names) == 0 {
							if name := typeName(field.Type); name != "" {
								embeds[pkg+ts.Name.Name] = append(embeds[pkg+ts.Name.Name], pkg+name)
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if count["actions.run"] == 0 || len(count) < 100 {
		t.Fatalf("%d types with methods, none of actions.run: the count reads the wrong files", len(count))
	}
	var total func(typ string, seen map[string]bool) int
	total = func(typ string, seen map[string]bool) int {
		if seen[typ] {
			return 0
		}
		seen[typ] = true
		n := count[typ]
		for _, e := range embeds[typ] {
			n += total(e, seen)
		}
		return n
	}
	var types []string
	for typ := range count {
		types = append(types, typ)
	}
	for typ := range embeds {
		types = append(types, typ)
	}
	sort.Strings(types)
	types = slices.Compact(types)
	for _, typ := range types {
		n := total(typ, map[string]bool{})
		name := typ // the package path under internal/, then the type
		limit, known := overMaxMethods[name]
		switch {
		case known && n > limit:
			t.Errorf("%s has %d methods, more than the %d it is known to have: split it rather than add to it", name, n, limit)
		case known && n <= maxMethods:
			t.Errorf("%s has %d methods, within %d: take it out of overMaxMethods", name, n, maxMethods)
		case !known && n > maxMethods:
			t.Errorf("%s has %d methods, more than %d: hand values between steps instead of adding to it", name, n, maxMethods)
		}
	}
	for name := range overMaxMethods {
		if _, ok := count[name]; !ok {
			if _, ok := embeds[name]; !ok {
				t.Errorf("%s of overMaxMethods has no methods left: take it out", name)
			}
		}
	}
}

// typeName is the name of a receiver's or embedded field's type of the
// same package (T, *T, T[P]); "" for another package's.
func typeName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}
