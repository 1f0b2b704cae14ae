package redact

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// twinInputs are the texts the twin test redacts both ways: every input
// of the shared cases, and lines of the kinds a page logs.
func twinInputs(t *testing.T) []string {
	in := []string{
		"", "plain words, nothing secret", "login ok for ann", `{"user":"ann","password":"hunter2","n":1}`,
		"password: two words, then more", "Authorization: Bearer abcdef123456", "Authorization: Bearer undefined",
		"token=abc123&page=2", "sent 'apiKey' => 'k-123456789'", "keyboard=qwerty monkey: george",
		"got eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2lnLWp3dC0zYzRk here", "key sk_live_abcdefghijkl and ghp_abcdefghijklmnopqrstuvwxyz",
		"AKIAABCDEFGHIJKLMNOP AIza" + "0123456789abcdefghijklmnopqrstuvwx", "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY----- after",
		"-----BEGIN PRIVATE KEY-----\nMIIcut", "npm_install_dir=x", "https://u:p4ss@h.test/a;jsessionid=S3SS?x=1&access_token=T0K#id_token=F",
		"https://h.test/cb?code=OC-1&state=s", "https://h.test/?q=%E2%9C%93&token=%E2%9C%93x", "sessionId=ümlaut-sëcret; path=/",
		"card number: 4111 1111 1111 1111", `"secret":"a\"b" rest`, "basic dXNlcjpwYXNz", "token    abcdefgh",
		"-----BEGIN PRIVATE KEY-----[redacted, 5 chars] MIIreal-key-after-a-fake-mark", "https://u:[redacted, 3 chars]@h.test/?token=%5Bredacted%2C+3+chars%5D",
		// Letters outside ASCII that fold to ASCII ones (the Kelvin sign to
		// k, the long s to s): Go's (?i) folds them, a JavaScript /i alone
		// does not.
		"to\u212Aen=abcdef123456", "\u017Fecret: hunter22", "Bearer\u212A abcdefgh", "pa\u017F\u017Fword=hunter2",
		"\u212Abearer abcdefgh", "my\u212Aey: abcdefgh", "\u212Aeyboard=qwerty", "x\u212A=1", "a\u212A\u212Ab: c",
	}
	for _, c := range loadCases(t) {
		in = append(in, c.In)
	}
	return in
}

// The extension's twin (extension/handlers/redact.js, run under node),
// which redacts console messages before the recorder stores them,
// redacts as Loose and URL do; and what either gives back is left as it
// is by a second pass (the daemon redacts a stored message again on the
// way out).
func TestTwinRedactsAsLooseAndURL(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: install Node.js (Debian: apt-get install nodejs), as .ci/run does")
	}
	inputs := twinInputs(t)
	in, err := json.Marshal(inputs)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(file, in, 0o600); err != nil {
		t.Fatal(err)
	}
	module, err := filepath.Abs("../../extension/handlers/redact.js")
	if err != nil {
		t.Fatal(err)
	}
	script := `
const inputs = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
import(process.argv[2]).then((m) => {
  process.stdout.write(JSON.stringify(inputs.map((s) => [m.loose(s), m.url(s)])));
}, (err) => { console.error(err); process.exit(1); });`
	out, err := exec.Command(node, "-e", script, file, module).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got [][2]string
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(inputs) {
		t.Fatalf("node gave %d answers for %d inputs: %v", len(got), len(inputs), err)
	}
	for i, s := range inputs {
		if want := Loose(s); got[i][0] != want {
			t.Errorf("loose(%q):\n js %q\n go %q", s, got[i][0], want)
		} else if again := Loose(want); again != want {
			t.Errorf("Loose twice changes %q: %q", want, again)
		}
		if want := URL(s); got[i][1] != want {
			t.Errorf("url(%q):\n js %q\n go %q", s, got[i][1], want)
		} else if again := URL(want); again != want {
			t.Errorf("URL twice changes %q: %q", want, again)
		}
	}
}
