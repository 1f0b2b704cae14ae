package clientgen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// A result type package bridge does not re-export by hand gets an alias
// in the generated file, with the contract's doc comment; so does a type
// it holds. Every exported name the file declares has a doc comment.
func TestAliasesWhatBridgeLacks(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "bridge"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A bridge that re-exports only the locator and the shared parts.
	hand := "package bridge\n\nimport \"github.com/browser-bridge/browser-bridge/internal/tool\"\n\n" +
		"type Locator = tool.Locator\ntype WaitFor = tool.WaitFor\ntype Page = tool.Page\ntype Outcome = tool.Outcome\n"
	if err := os.WriteFile(filepath.Join(root, "bridge", "results.go"), []byte(hand), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "internal"), 0o755); err != nil {
		t.Fatal(err)
	}
	tool, _ := filepath.Abs(filepath.Join("..", "tool"))
	if err := os.Symlink(tool, filepath.Join(root, "internal", "tool")); err != nil {
		t.Fatal(err)
	}
	src, err := Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"// NavResult is reload's, back's and forward's answer",
		"type NavResult = tool.NavResult",
		"type Found = tool.Found", // held by FindResult
		"func (c *Client) Reload(ctx context.Context, p ReloadParams) (*NavResult, error)",
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the generated file lacks %q", want)
		}
	}
	f, err := parser.ParseFile(token.NewFileSet(), File, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Doc == nil {
				t.Errorf("method %s has no doc comment", d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				ts, ok := s.(*ast.TypeSpec)
				if !ok {
					continue
				}
				if d.Doc == nil {
					t.Errorf("type %s has no doc comment", ts.Name.Name)
				}
				if st, ok := ts.Type.(*ast.StructType); ok {
					for _, fl := range st.Fields.List {
						if len(fl.Names) > 0 && fl.Doc == nil {
							t.Errorf("field %s.%s has no doc comment", ts.Name.Name, fl.Names[0].Name)
						}
					}
				}
			}
		}
	}
}

// A new action takes its Go names from its name; the names the client
// published before it was generated stay.
func TestNames(t *testing.T) {
	for action, want := range map[string][2]string{
		"reload":  {"Reload", "ReloadParams"},
		"pdf":     {"PDF", "PDFParams"},
		"close":   {"CloseTabs", "CloseParams"},
		"back":    {"Back", "HistoryParams"},
		"status":  {"", ""},
		"newverb": {"Newverb", "NewverbParams"},
	} {
		m, p := Names(action)
		if m != want[0] || p != want[1] {
			t.Errorf("Names(%q) = %q, %q; want %q", action, m, p, want)
		}
	}
}

// Types the generated file can spell: built-ins, slices and maps of
// them; a named type from a package it does not import is refused with
// a sentence, not written into a file that would not build.
func TestTypeExprSpellsOnlyWhatTheFileCanName(t *testing.T) {
	g := &gen{aliases: map[string]string{}, extra: map[string]bool{}, toolAliases: map[string]string{}}
	for _, c := range []struct {
		v    any
		want string
	}{
		{"", "string"},
		{[]int{}, "[]int"},
		{map[string][]string{}, "map[string][]string"},
		{(*bool)(nil), "*bool"},
	} {
		got, err := g.typeExpr(reflect.TypeOf(c.v))
		if err != nil || got != c.want {
			t.Errorf("%T spelled %q, %v; want %q", c.v, got, err, c.want)
		}
	}
	if _, err := g.typeExpr(reflect.TypeOf(time.Second)); err == nil || !strings.Contains(err.Error(), "does not import") {
		t.Errorf("time.Duration: %v, want a refusal naming the import", err)
	}
}

// The client's action methods are the contract's as it stands: a spec
// added or changed in internal/tool without go generate ./bridge fails
// here. (It lives here rather than in package bridge, whose test main
// starts Chromium, so that the unit stage catches a stale file.)
func TestGeneratedIsCurrent(t *testing.T) {
	root := filepath.Join("..", "..")
	want, err := Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, "bridge", File))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("bridge/%s is stale: run go generate ./bridge", File)
	}
}
