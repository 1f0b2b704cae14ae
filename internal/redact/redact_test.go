package redact

import (
	"encoding/json"
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
		{"Content-Type", false}, {"Accept", false}, {"Content-Length", false}, {"Cache-Control", false}, {"User-Agent", false},
	} {
		got := Header(c.name, "v4lue")
		if (got == Mark) != c.secret {
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
		{"https://a.test/x?token=abc&q=1", "https://a.test/x?token=%5Bredacted%5D&q=1"},
		{"https://a.test/cb#access_token=xyz&state=s", "https://a.test/cb#access_token=%5Bredacted%5D&state=s"},
		{"https://u:pw@a.test/p?api_key=k", "https://u:[redacted]@a.test/p?api_key=%5Bredacted%5D"},
		{"https://u@a.test/p", "https://u@a.test/p"},
		{"https://a.test/x?pass%77ord=zz", "https://a.test/x?pass%77ord=%5Bredacted%5D"},
		{"", ""},
	} {
		if got := URL(c.in); got != c.want {
			t.Errorf("URL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestBody(t *testing.T) {
	for _, c := range []struct{ ct, in, want string }{
		{"application/json", `{"user":"ann","password":"hunter2"}`, `{"user":"ann","password":"[redacted]"}`},
		{"application/json", `{"access_token":"eyJ","expires_in":3600,"nested":{"refresh_token":"r1","ok":true}}`,
			`{"access_token":"[redacted]","expires_in":3600,"nested":{"refresh_token":"[redacted]","ok":true}}`},
		{"application/json", `{"card":{"number":"4111","cvc":"123"},"items":[1,2]}`, `{"card":"[redacted]","items":[1,2]}`},
		{"application/json", `[{"token":null},{"x":[{"secret":1}]}]`, `[{"token":"[redacted]"},{"x":[{"secret":"[redacted]"}]}]`},
		{"application/json", `{"error":"boom","code":500}`, `{"error":"boom","code":500}`},
		{"text/plain", `{"password":"p`, `{"password":"[redacted]"`},
		{"application/x-www-form-urlencoded", "user=ann&password=hunter2&cvc=1", "user=ann&password=%5Bredacted%5D&cvc=%5Bredacted%5D"},
		{"text/plain", "password=hunter2 and token: abc", "password=[redacted] and token: [redacted]"},
		{"text/html", "<p>hello</p>", "<p>hello</p>"},
		{"text/plain", "sent Authorization: Bearer eyJhbGciOi.x-y", "sent Authorization: [redacted] [redacted]"}, {"text/plain", "use Bearer eyJhbGciOi.x-y", "use Bearer [redacted]"},
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
	f.Fuzz(func(t *testing.T, ct, body string) {
		out := Body(ct, body)
		if json.Valid([]byte(body)) && strings.Contains(ct, "json") && !json.Valid([]byte(out)) {
			t.Fatalf("Body(%q) = %q: JSON in, not JSON out", body, out)
		}
		_ = URL(body)
		_ = Query(body)
		planted := Body("application/json", `{"password":`+mustJSON(body)+`}`)
		if planted != `{"password":"[redacted]"}` {
			t.Fatalf("planted secret %q came out: %s", body, planted)
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
