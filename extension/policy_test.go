package extension

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The extension's twin of the site rules (handlers/siterules.js) gives
// the answers internal/policy gives, on the cases both read
// (internal/policy/testdata/cases.json), and its declarativeNetRequest
// regexFilters match the same request URLs in every spelling the cases
// do not leave to webNavigation ("dnr": false). This runs the module under
// node, which the test command needs; e2e/user runs the same cases in
// Chromium.
func TestSiteRulesTwin(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		// The test command needs node anyway (the npm fixtures); a twin
		// left unchecked must not read as a pass.
		t.Fatal("node is not installed: install Node.js (Debian: apt-get install nodejs), as .ci/run does")
	}
	cases, err := filepath.Abs("../internal/policy/testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	module, _ := filepath.Abs("handlers/siterules.js")
	script := `
const fs = require("fs");
const cases = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
import(process.argv[2]).then((m) => {
  const builtIn = ` + builtInJS(t) + `;
  const out = [];
  // declarativeNetRequest sees the navigations (http, https) as Chrome
  // writes them.
  const webish = (u) => /^https?:\/\//.test(u) && !u.includes("#");
  const hits = (res, u) => res.some((re) => new RegExp(re).test(new URL(u).href));
  for (const c of cases.match) {
    let got;
    try { got = m.match(c.pattern, c.url); } catch (e) { got = "threw " + e.message; }
    if (got !== c.want) out.push("match(" + JSON.stringify(c.pattern) + ", " + c.url + ") = " + got + ", want " + c.want);
    if (!webish(c.url)) continue;
    // A deny rule's regexes match what the rule matches (but for the
    // spellings the cases say webNavigation alone stops); only a host
    // with a wildcard port may have none.
    const res = m.toRegexes(c.pattern);
    if (res.length === 0) {
      if (c.want && !/^[^/]*:[^/]*[*]/.test(c.pattern)) out.push("toRegexes(" + JSON.stringify(c.pattern) + ") is empty but the pattern matches " + c.url);
      continue;
    }
    const hit = hits(res, c.url);
    if (hit !== c.want && !(c.dnr === false && !hit)) out.push("toRegexes(" + JSON.stringify(c.pattern) + ") = " + JSON.stringify(res) + " gives " + hit + " on " + c.url + ", want " + c.want);
    // An allow rule's regexes match no more than the rule.
    if (hits(m.toRegexes(c.pattern, "allow"), c.url) && !c.want) out.push("allow regexes of " + JSON.stringify(c.pattern) + " match " + c.url);
  }
  for (const c of cases.check) {
    const d = m.check({ allow: c.allow || [], deny: c.deny || [], builtInDeny: builtIn }, c.url);
    if (d.allowed !== c.allowed || d.rule !== c.rule || (c.why && !(d.why || "").includes(c.why))) {
      out.push("check(" + JSON.stringify(c) + ") = " + JSON.stringify(d));
    }
  }
  console.log(JSON.stringify(out));
}).catch((e) => { console.log(JSON.stringify(["import failed: " + e.stack])); });
`
	cmd := exec.Command(node, "-e", script, cases, "file://"+module)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var fails []string
	if err := json.Unmarshal(out, &fails); err != nil {
		t.Fatalf("node said: %s", out)
	}
	for _, f := range fails {
		t.Error(f)
	}
}

// builtInJS is policy.DefaultDeny as a JS array, read from the Go source
// so that this package need not import internal/policy.
func builtInJS(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../internal/policy/policy.go")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "var DefaultDeny = []string{")
	if i < 0 {
		t.Fatal("internal/policy/policy.go has no DefaultDeny")
	}
	s = s[i+len("var DefaultDeny = []string{"):]
	s = s[:strings.Index(s, "}")]
	return "[" + s + "]"
}
