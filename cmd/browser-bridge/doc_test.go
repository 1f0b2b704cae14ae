package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// Every package has a package comment and every exported name a doc
// comment (STYLE.md): the next engineer reads these first.
func TestEveryPackageAndExportedNameIsDocumented(t *testing.T) {
	root := filepath.Join("..", "..")
	dirs := map[string][]*ast.File{}
	fset := token.NewFileSet()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		dirs[filepath.Dir(p)] = append(dirs[filepath.Dir(p)], f)
		return nil
	})
	if len(dirs) < 10 {
		t.Fatalf("found only %d packages; is the walk right?", len(dirs))
	}
	for dir, files := range dirs {
		hasDoc := false
		for _, f := range files {
			if f.Doc != nil {
				hasDoc = true
			}
			for _, decl := range f.Decls {
				switch d := decl.(type) {
				case *ast.FuncDecl:
					if d.Name.IsExported() && d.Doc == nil && (d.Recv == nil || exportedRecv(d.Recv)) {
						t.Errorf("%s: func %s has no doc comment", fset.Position(d.Pos()), d.Name.Name)
					}
				case *ast.GenDecl:
					for _, spec := range d.Specs {
						switch s := spec.(type) {
						case *ast.TypeSpec:
							if s.Name.IsExported() && d.Doc == nil && s.Doc == nil {
								t.Errorf("%s: type %s has no doc comment", fset.Position(s.Pos()), s.Name.Name)
							}
						case *ast.ValueSpec:
							for _, n := range s.Names {
								if n.IsExported() && d.Doc == nil && s.Doc == nil && s.Comment == nil {
									t.Errorf("%s: %s has no doc comment", fset.Position(n.Pos()), n.Name)
								}
							}
						}
					}
				}
			}
		}
		if !hasDoc {
			t.Errorf("package in %s has no package comment", dir)
		}
	}
}

func exportedRecv(fl *ast.FieldList) bool {
	if len(fl.List) == 0 {
		return false
	}
	t := fl.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.IsExported()
	}
	return true
}
