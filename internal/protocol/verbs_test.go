package protocol

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// protocolJS is the extension's side of the wire, relative to this package.
const protocolJS = "../../extension/protocol.js"

// TestVerbsMatchProtocolJS fails when Verbs and VERBS in
// extension/protocol.js disagree: a verb on one side only, or a verb whose
// parameters differ. The protocol version cannot catch that on its own.
func TestVerbsMatchProtocolJS(t *testing.T) {
	src, err := os.ReadFile(protocolJS)
	if err != nil {
		t.Fatalf("reading the extension's protocol: %v", err)
	}
	js, err := parseVerbsJS(string(src))
	if err != nil {
		t.Fatalf("%s: %v", protocolJS, err)
	}
	diffs := diffVerbs(goVerbs(), js)
	for _, d := range diffs {
		t.Error(d)
	}
	if len(diffs) > 0 {
		t.Logf("Verbs (internal/protocol/verbs.go) and VERBS (extension/protocol.js) must list the same verbs with the same parameters; change both and bump the protocol version")
	}
}

// TestVerbParamsAreTagged keeps every params field on the wire: a field
// without a json tag would be sent under its Go name, which no handler
// reads.
func TestVerbParamsAreTagged(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range Verbs {
		if seen[v.Name] {
			t.Errorf("verb %q is listed twice", v.Name)
		}
		seen[v.Name] = true
		typ := reflect.TypeOf(v.Params)
		if typ.Kind() != reflect.Struct {
			t.Errorf("%s: params %s is not a struct", v.Name, typ)
			continue
		}
		for f := range typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				t.Errorf("%s: field %s.%s has no json name", v.Name, typ.Name(), f.Name)
			}
			// A command is {id, type, ...params}: a parameter of either
			// name would overwrite the command's own.
			if name == "id" || name == "type" {
				t.Errorf("%s: parameter %q is the name of a command's own field", v.Name, name)
			}
		}
	}
}

func TestParseVerbsJS(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    map[string][]string
		wantErr string
	}{
		{
			name: "entries, comments and blank lines",
			src: `export const PROTOCOL_VERSION = 3;
// The verbs.
export const VERBS = {
  // tab.get describes one tab.
  "tab.get": ["tabId"],

  "page.run": ["tabId", "files", "fn", "args", "frameId", "allFrames"], // page scripts
  'bridge.ping': [],
  "cdp": [ "tabId" , "method", "params" ]
};
export const OTHER = { "x": ["y"] };`,
			want: map[string][]string{
				"tab.get":     {"tabId"},
				"page.run":    {"tabId", "files", "fn", "args", "frameId", "allFrames"},
				"bridge.ping": {},
				"cdp":         {"tabId", "method", "params"},
			},
		},
		{name: "no table", src: `export const PROTOCOL_VERSION = 3;`, wantErr: "no VERBS"},
		{name: "unterminated", src: "export const VERBS = {\n  \"tab.get\": [\"tabId\"],\n", wantErr: "not closed"},
		{name: "entry over two lines", src: "export const VERBS = {\n  \"tab.get\": [\n \"tabId\"],\n};", wantErr: "line 2"},
		{name: "twice", src: "export const VERBS = {\n  \"a\": [],\n  \"a\": [\"b\"],\n};", wantErr: "twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseVerbsJS(tt.src)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v\nwant %v", got, tt.want)
			}
		})
	}
}

func TestDiffVerbs(t *testing.T) {
	goSide := map[string][]string{"tab.get": {"tabId"}, "tab.close": {"tabId", "tabIds"}, "go.only": {}}
	jsSide := map[string][]string{"tab.get": {"tabId"}, "tab.close": {"tabIds", "all"}, "js.only": {"x"}}
	want := []string{
		`verb "go.only" is in internal/protocol.Verbs but not in extension/protocol.js VERBS`,
		`verb "js.only" is in extension/protocol.js VERBS but not in internal/protocol.Verbs`,
		`verb "tab.close": parameters differ: only in Go [tabId], only in protocol.js [all]`,
	}
	if got := diffVerbs(goSide, jsSide); !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := diffVerbs(goSide, goSide); len(got) != 0 {
		t.Errorf("a list differs from itself: %v", got)
	}
}

var (
	verbsStart = regexp.MustCompile(`(?m)^export const VERBS = \{\s*$`)
	verbsEntry = regexp.MustCompile(`^\s*["']([A-Za-z.]+)["']\s*:\s*\[([^\]]*)\]\s*,?\s*(//.*)?$`)
	verbsParam = regexp.MustCompile(`^\s*["']([A-Za-z]+)["']\s*$`)
)

// parseVerbsJS reads the VERBS table of protocol.js: one
// `"verb": ["param", ...],` entry per line, with comments and blank lines
// between them. Any other line is an error, so that a change of layout is
// noticed instead of silently dropping verbs.
func parseVerbsJS(src string) (map[string][]string, error) {
	loc := verbsStart.FindStringIndex(src)
	if loc == nil {
		return nil, fmt.Errorf("no VERBS table (a line `export const VERBS = {`)")
	}
	out := map[string][]string{}
	lines := strings.Split(src[loc[1]:], "\n")
	for i, line := range lines {
		s := strings.TrimSpace(line)
		switch {
		case s == "" || strings.HasPrefix(s, "//"):
			continue
		case s == "};" || s == "}":
			return out, nil
		}
		m := verbsEntry.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("VERBS line %d is not one `\"verb\": [\"param\", ...],` entry: %q", i+1, s)
		}
		if _, dup := out[m[1]]; dup {
			return nil, fmt.Errorf("VERBS lists %q twice", m[1])
		}
		params := []string{}
		if strings.TrimSpace(m[2]) != "" {
			for p := range strings.SplitSeq(m[2], ",") {
				pm := verbsParam.FindStringSubmatch(p)
				if pm == nil {
					return nil, fmt.Errorf("VERBS %q: %q is not a quoted parameter name", m[1], strings.TrimSpace(p))
				}
				params = append(params, pm[1])
			}
		}
		out[m[1]] = params
	}
	return nil, fmt.Errorf("the VERBS table is not closed with `};`")
}

// goVerbs is Verbs as verb → the json names of its params' fields.
func goVerbs() map[string][]string {
	out := map[string][]string{}
	for _, v := range Verbs {
		names := []string{}
		for f := range reflect.TypeOf(v.Params).Fields() {
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
				names = append(names, name)
			}
		}
		out[v.Name] = names
	}
	return out
}

// diffVerbs lists every difference between the two sides, sorted.
func diffVerbs(goSide, jsSide map[string][]string) []string {
	var diffs []string
	for verb, gp := range goSide {
		jp, ok := jsSide[verb]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("verb %q is in internal/protocol.Verbs but not in extension/protocol.js VERBS", verb))
			continue
		}
		onlyGo, onlyJS := minus(gp, jp), minus(jp, gp)
		if len(onlyGo) > 0 || len(onlyJS) > 0 {
			diffs = append(diffs, fmt.Sprintf("verb %q: parameters differ: only in Go %v, only in protocol.js %v", verb, onlyGo, onlyJS))
		}
	}
	for verb := range jsSide {
		if _, ok := goSide[verb]; !ok {
			diffs = append(diffs, fmt.Sprintf("verb %q is in extension/protocol.js VERBS but not in internal/protocol.Verbs", verb))
		}
	}
	sort.Strings(diffs)
	return diffs
}

// minus is the names in a that are not in b, sorted.
func minus(a, b []string) []string {
	out := []string{}
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}
