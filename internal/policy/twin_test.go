package policy

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The extension's twin (extension/handlers/siterules.js, run under node)
// decides as Check does on thousands of spellings built from the parts
// of a URL that a rule once missed, beyond the shared cases: the same
// URL with its host, port, user info, path and query written the ways a
// browser accepts, against deny and allow rules of each kind.
func TestTwinAgreesOnSpellings(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		// The test command needs node anyway (the npm fixtures); a twin
		// left unchecked must not read as a pass.
		t.Fatal("node is not installed: install Node.js (Debian: apt-get install nodejs), as .ci/run does")
	}
	patterns := []string{
		"localhost", "localhost:8080", "127.0.0.1", "127.0.0.1:8080", "127.0.0.1/admin/*",
		"example.com/admin/*", "http://127.0.0.1:8080/admin/*", "https://example.com/*", "*.example.com",
		"bücher.de", "[::1]", "example.com/search?q=*", "*", "https://*", "localhost:80*",
	}
	parts := [][]string{
		{"http://", "https://", "HTTP://", "http:/", "http:\\\\", "https:///"},
		{"", "x@", "x:y@"},
		{"localhost", "LocalHost.", "localhost..", "127.0.0.1", "127.1", "0x7f.0.0.1", "0177.0.0.1", "2130706433",
			"[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[::1]", "[0::1]", "example.com", "WWW.Example.com.", "bücher.de",
			"xn--bcher-kva.de", "a.b.example.com", "1.2.3.256", "[fe80::1%25eth0]", "0x100000000"},
		{"", ":80", ":080", ":8080", ":443", ":99999"},
		{"", "/", "/admin/x", "/%61dmin/x", "//admin/x", "/admin%2fx", "/admin%2Fx", "/admin%5Cx", "/x/../admin/y",
			"/x/%2e%2e/admin/y", "/x/..%2fadmin/y", "/Admin/x", "/admin", "/admin/", "/%41dmin", "/a%20b", "/ad%6Din/",
			"\\admin\\x", "/search", "/admin/./x"},
		{"", "?q=1", "?%71=1", "?"},
		{"", "#f"},
	}
	rng := rand.New(rand.NewPCG(26, 2))
	urls := make([]string, 1500)
	for i := range urls {
		u := ""
		for _, p := range parts {
			u += p[rng.IntN(len(p))]
		}
		urls[i] = u
	}
	type decision struct {
		Allowed bool   `json:"allowed"`
		Rule    string `json:"rule"`
	}
	var want [][2]decision // per URL and pattern: as a deny rule, as an allow rule
	for _, u := range urls {
		for _, p := range patterns {
			d, a := Rules{Deny: []string{p}}.Check(u), Rules{Allow: []string{p}}.Check(u)
			want = append(want, [2]decision{{d.Allowed, d.Rule}, {a.Allowed, a.Rule}})
		}
	}
	in, err := json.Marshal(map[string]any{"urls": urls, "patterns": patterns, "builtIn": DefaultDeny})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(file, in, 0o600); err != nil {
		t.Fatal(err)
	}
	module, err := filepath.Abs("../../extension/handlers/siterules.js")
	if err != nil {
		t.Fatal(err)
	}
	script := `
const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
import(process.argv[2]).then((m) => {
  const out = [];
  const d = (r) => ({ allowed: r.allowed, rule: r.rule });
  for (const u of c.urls) for (const p of c.patterns) {
    out.push([d(m.check({ deny: [p], builtInDeny: c.builtIn }, u)), d(m.check({ allow: [p], builtInDeny: c.builtIn }, u))]);
  }
  console.log(JSON.stringify(out));
}).catch((e) => { console.log(JSON.stringify("import failed: " + e.stack)); });
`
	out, err := exec.Command(node, "-e", script, file, "file://"+module).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var got [][2]decision
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node said: %.2000s", out)
	}
	if len(got) != len(want) {
		t.Fatalf("node gave %d decisions, want %d", len(got), len(want))
	}
	fails := 0
	for i := range want {
		if got[i] != want[i] && fails < 30 {
			fails++
			u, p := urls[i/len(patterns)], patterns[i%len(patterns)]
			t.Errorf("%q with rule %q: Go %s, the twin %s", u, p, show(want[i]), show(got[i]))
		}
	}
}

func show[T any](d [2]T) string { return fmt.Sprintf("deny→%+v allow→%+v", d[0], d[1]) }
