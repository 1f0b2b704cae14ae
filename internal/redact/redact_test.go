package redact

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHeader(t *testing.T) {
	for _, c := range []struct {
		name   string
		secret bool
	}{
		{"Cookie", true}, {"set-cookie", true}, {"Authorization", true}, {"Proxy-Authorization", true},
		{"X-API-Key", true}, {"api_key", true}, {"X-Auth-Token", true}, {"X-CSRF-Token", true}, {"x-amz-security-token", true},
		{"X-Session-Id", true}, {"X-Hub-Signature-256", true}, {"X-Key-Id", true}, {"X-Client-Secret", true}, {"X-My-Auth", true},
		{"Content-Type", false}, {"X-Debug", false}, {"Keep-Alive", false}, {"X-Monkey", false}, {"Accept", false}, {"Content-Length", false}, {"Cache-Control", false}, {"User-Agent", false},
	} {
		got := Header(c.name, "v4lue")
		if (got == "[redacted, 5 chars]") != c.secret {
			t.Errorf("Header(%q) = %q, want secret=%v", c.name, got, c.secret)
		}
	}
}

func TestSecretName(t *testing.T) {
	for _, c := range []struct {
		name   string
		secret bool
	}{
		{"password", true}, {"Password", true}, {"passwd", true}, {"pwd", true}, {"new_password", true}, {"pass", true},
		{"token", true}, {"access_token", true}, {"refreshToken", true}, {"id_token", true}, {"csrfToken", true},
		{"secret", true}, {"client_secret", true}, {"key", true}, {"apiKey", true}, {"api_key", true}, {"private-key", true},
		{"card", true}, {"cardNumber", true}, {"card_number", true}, {"cc-number", true}, {"cvc", true}, {"cvv", true}, {"pin", true},
		{"username", false}, {"author", false}, {"auth", true}, {"Authorization", true}, {"email", false}, {"q", false}, {"keyword", false}, {"keyboard", false}, {"monkey", false},
		{"page", false}, {"id", false}, {"name", false}, {"message", false}, {"expires_in", false}, {"", false},
	} {
		if got := SecretName(c.name); got != c.secret {
			t.Errorf("SecretName(%q) = %v, want %v", c.name, got, c.secret)
		}
	}
}

func TestURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://a.test/x?q=shoes&page=2", "https://a.test/x?q=shoes&page=2"},
		{"https://a.test/x?token=abc&q=1", "https://a.test/x?token=%5Bredacted%2C+3+chars%5D&q=1"},
		{"https://a.test/cb#access_token=xyz&state=s", "https://a.test/cb#access_token=%5Bredacted%2C+3+chars%5D&state=s"},
		{"https://u:pw@a.test/p?api_key=k", "https://u:[redacted, 2 chars]@a.test/p?api_key=%5Bredacted%2C+1+chars%5D"},
		{"https://u@a.test/p", "https://u@a.test/p"},
		{"https://a.test/x?pass%77ord=zz", "https://a.test/x?pass%77ord=%5Bredacted%2C+2+chars%5D"},
		{"https://a.test/x?token=a%20b", "https://a.test/x?token=%5Bredacted%2C+3+chars%5D"},
		{"https://a.test/x?token&q=1", "https://a.test/x?token&q=1"},
		{"https://a.test/x?token=undefined", "https://a.test/x?token=undefined"},
		{"", ""},
	} {
		if got := URL(c.in); got != c.want {
			t.Errorf("URL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestBody(t *testing.T) {
	for _, c := range []struct{ ct, in, want string }{
		{"application/json", `{"user":"ann","password":"hunter2"}`, `{"user":"ann","password":"[redacted, 7 chars]"}`},
		{"application/json", `{"access_token":"eyJ","expires_in":3600,"nested":{"refresh_token":"r1","ok":true}}`,
			`{"access_token":"[redacted, 3 chars]","expires_in":3600,"nested":{"refresh_token":"[redacted, 2 chars]","ok":true}}`},
		{"application/json", `{"card":{"number":"4111","cvc":"123"},"items":[1,2]}`, `{"card":"[redacted, 29 chars]","items":[1,2]}`},
		{"application/json", `[{"token":null},{"x":[{"secret":1}]}]`, `[{"token":null},{"x":[{"secret":"[redacted, 1 chars]"}]}]`},
		{"application/json", `{"error":"boom","code":500}`, `{"error":"boom","code":500}`},
		{"text/plain", `{"password":"p`, `{"password":"[redacted, 1 chars]"`},
		{"application/x-www-form-urlencoded", "user=ann&password=hunter2&cvc=1", "user=ann&password=%5Bredacted%2C+7+chars%5D&cvc=%5Bredacted%2C+1+chars%5D"},
		{"text/plain", "password=hunter2 and token: abc", "password=[redacted, 22 chars]"},
		{"text/html", "<p>hello</p>", "<p>hello</p>"},
		{"text/plain", "sent Authorization: Bearer eyJhbGciOi.x-y", "sent Authorization: Bearer [redacted, 14 chars]"},
		{"text/plain", "use Bearer eyJhbGciOi.x-y", "use Bearer [redacted, 14 chars]"},
		{"text/plain", `{"auth": "Bearer abc123"}`, `{"auth":"Bearer [redacted, 6 chars]"}`}, {"text/plain", `auth: "Bearer abc123"`, `auth: "Bearer [redacted, 6 chars]"`},
		{"", "", ""},
	} {
		if got := Body(c.ct, c.in); got != c.want {
			t.Errorf("Body(%q, %q) = %q, want %q", c.ct, c.in, got, c.want)
		}
	}
}

// FuzzBody feeds a page's bytes through every reader: none panics, JSON in
// stays JSON out, and a secret value planted under a secret name never
// comes out.
func FuzzBody(f *testing.F) {
	f.Add("application/json", `{"a":[1,{"password":"s3cr3tv4lue"}]}`)
	f.Add("application/x-www-form-urlencoded", "a=1&token=s3cr3tv4lue")
	f.Add("text/plain", `password: "s3cr3tv4lue"`)
	f.Add("", `[[[{"}`)
	f.Add("multipart/form-data; boundary=XyZ", "--XyZ\r\nContent-Disposition: form-data; name=\"pw\"\r\n\r\ns3cr3t\r\n--XyZ--\r\n")
	f.Add("text/plain", "p\x00a\x00s\x00s\x00w\x00o\x00r\x00d\x00=\x00x\x00")
	f.Add("text/html", `<meta name="csrf-token" content="abc"><input name='x' value=y>`)
	f.Add("text/plain", "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY----- -----BEGIN PRIVATE KEY-----")
	f.Add("application/json", `{"a":"sk_live_51HxYzAB npm_config glpat-xYz0123456789abcdefGH xoxb-1-2 AKIAIOSFODNN7EXAMPLE"}`)
	f.Add("text/plain", "auth: 'Bearer  ' token=Basic%20x")
	f.Fuzz(func(t *testing.T, ct, body string) {
		out := Body(ct, body)
		if json.Valid([]byte(body)) && strings.Contains(ct, "json") && !json.Valid([]byte(out)) {
			t.Fatalf("Body(%q) = %q: JSON in, not JSON out", body, out)
		}
		_ = URL(body)
		_ = Query(body)
		planted := Body("application/json", `{"password":`+mustJSON(body)+`}`)
		// Whole, or keeping an Authorization scheme that leads it ("token
		// [redacted, 1 chars]"), as every credential does.
		if want := `{"password":"` + mark(body) + `"}`; planted != want && planted != `{"password":`+mustJSON(markCred(body))+`}` && !plainlyNotSecret(body) {
			t.Fatalf("planted secret %q came out: %s", body, planted)
		}
	})
}

// FuzzMultipart feeds a page's bytes as a multipart body and as a UTF-16
// one: neither reader panics, and a secret field's value planted in a
// well-formed form never comes out.
func FuzzMultipart(f *testing.F) {
	f.Add("XyZ", "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--XyZ--")
	f.Add("b", "--b\nContent-Disposition: form-data; name=user[password]\n\nx")
	f.Add("", "\xff\xfe{\x00\"\x00")
	f.Fuzz(func(t *testing.T, boundary, body string) {
		_ = Body("multipart/form-data; boundary="+boundary, body)
		_ = Body("", body)
		_ = utf16Text(body)
		const secret = "s3cr3tv4lue"
		if boundary == "" || strings.ContainsAny(boundary, "\r\n\"; \t\\") || strings.Contains(secret, boundary) || strings.Contains(body, "--"+boundary) {
			return
		}
		form := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"passphrase\"\r\n\r\n" + secret + "\r\n--" + boundary + "\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\n" + body + "\r\n--" + boundary + "--\r\n"
		out := Body("multipart/form-data; boundary=\""+boundary+"\"", form)
		if strings.Count(out, secret) > strings.Count(body, secret) {
			t.Fatalf("the planted secret came out: %q", out)
		}
	})
}

// FuzzHeader feeds a page's header values through Header: it never
// panics, and a credential header's value comes out either marked or,
// when it is plainly no secret, flagged as it was sent.
func FuzzHeader(f *testing.F) {
	f.Add("Authorization", "Bearer abc")
	f.Add("Cookie", "a=1; b; =c;;")
	f.Add("Set-Cookie", "sid=x; Path=/")
	f.Add("X-Debug", "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 eyJa.eyJb.c")
	f.Add("Referer", "https://u:p@a.test/?token=x#code=y")
	f.Fuzz(func(t *testing.T, name, value string) {
		out := Header(name, value)
		if strings.EqualFold(name, "Authorization") && !strings.Contains(out, Mark) && !strings.HasSuffix(out, Suspicious) {
			t.Fatalf("Header(Authorization, %q) = %q: neither marked nor flagged", value, out)
		}
		const secret = "s3cr3tv4lue"
		if !strings.Contains(value, secret) {
			if got := Header("Authorization", "Bearer "+secret+value); strings.Contains(got, secret) {
				t.Fatalf("the planted secret came out: %q", got)
			}
		}
	})
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func BenchmarkLooseConsoleLine(b *testing.B) {
	for range b.N {
		Loose("line 123 of the log of a busy page")
	}
}

// redactCase is one case of testdata/cases.json: a header (name, value),
// a URL, a body (content type) or a console line; what must not come out
// and what must.
type redactCase struct {
	Why    string   `json:"why"`
	Kind   string   `json:"kind"`
	Name   string   `json:"name"`
	Type   string   `json:"type"`
	In     string   `json:"in"`
	Hidden []string `json:"hidden"`
	Shown  []string `json:"shown"`
}

// loadCases reads testdata/cases.json, the table the Go redaction and
// its JavaScript twin are both held to.
func loadCases(t *testing.T) []redactCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []redactCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestCases runs the shared table of ways a secret was seen to come back
// in the clear, and of values that must be shown as they are.
func TestCases(t *testing.T) {
	for _, c := range loadCases(t) {
		var got string
		switch c.Kind {
		case "header":
			got = Header(c.Name, c.In)
		case "url":
			got = URL(c.In)
		case "body":
			got = Body(c.Type, c.In)
		case "console":
			got = Loose(c.In)
		default:
			t.Fatalf("%s: unknown kind %q", c.Why, c.Kind)
		}
		for _, h := range c.Hidden {
			if strings.Contains(got, h) {
				t.Errorf("%s: %q came out in %q", c.Why, h, got)
			}
		}
		for _, s := range c.Shown {
			if !strings.Contains(got, s) {
				t.Errorf("%s: %q is missing from %q", c.Why, s, got)
			}
		}
	}
}
