package record

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The secrets of the shape page, each of a kind internal/redact knows by
// its value or by its name (docs/cli.md, "Secrets never reach the
// agent"): none may reach the agent, while the shape around each does.
const (
	shapeBearer  = "b3arer-f0rty-chars-0123456789abcdefghijk" // 40 characters
	shapeJWT     = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzaGFwZSJ9.c2hhcGUtc2lnLTk4NzY"
	shapeStripe  = "51HxYzSHAPE0123456789xy"
	shapeGitHub  = "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
	shapeGitLab  = "sHaPe0123456789abcdefGH"
	shapeAWS     = "SHAPEEXAMPLE0123"
	shapeNpm     = "nPm0123456789abcdefghijklmnopqrstuvw"
	shapeSession = "x-sess-5a4b3c2d"
	shapeCookie  = "c00kie-shape-77"
	shapePEMBody = "MIIEvQIBADANBgkqSHAPEpemBODY"
)

// shapePage sends each kind of secret through a real fetch and a console
// line, and the not-secrets that are the bug (a missing token).
var shapePage = `<!doctype html><title>shape</title><p id="out">waiting</p>
<script>
(async () => {
  console.log("config key AKIA` + shapeAWS + ` and " + "-----BEGIN PRIVATE KEY-----\n` + shapePEMBody + `\n-----END PRIVATE KEY-----");
  console.error("login failed: Authorization: Bearer undefined");
  await fetch("/api/shape?ref=ghp_` + shapeGitHub + `&q=shoes", {method: "POST",
    headers: {"Authorization": "Bearer ` + shapeBearer + `", "X-Debug": "user=ann jwt ` + shapeJWT + `", "X-Request-Id": "req-kept-1",
      "Content-Type": "application/json"},
    body: JSON.stringify({jwt: "` + shapeJWT + `", bearer: "sk_live_` + shapeStripe + `", note: "glpat-` + shapeGitLab + `", password: null, keyword: "shoes"})});
  await fetch("/api/shape-missing", {headers: {"Authorization": "Bearer undefined", "X-Api-Key": "null"}});
  document.getElementById("out").textContent = "done";
})();
</script>`

func shapeSite() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/shape", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, shapePage)
	})
	mux.HandleFunc("/api/shape", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Session-Id", shapeSession)
		w.Header().Set("X-Debug", "issued "+shapeJWT)
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: shapeCookie, Path: "/"})
		fmt.Fprintf(w, `{"jwt":%q,"npm":"npm_%s","items":[1,2]}`, shapeJWT, shapeNpm)
	})
	mux.HandleFunc("/api/shape-missing", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(401)
		fmt.Fprint(w, `{"error":"no token"}`)
	})
	return mux
}

// flat is m as JSON text with its strings' quotes unescaped, so that a
// body's text reads the same whether it comes as text or parsed.
func flat(m any) string {
	b, _ := json.Marshal(m)
	return strings.ReplaceAll(string(b), `\"`, `"`)
}

// headerOf is the value of the header name in a detail's list.
func headerOf(req map[string]any, list0, name string) (string, bool) {
	for _, h := range list(req, list0) {
		if strings.EqualFold(h["name"].(string), name) {
			return h["value"].(string), true
		}
	}
	return "", false
}

// TestRedactionKeepsTheShape has a page send secrets of every kind the
// redactor knows by value (a JWT, Stripe, GitHub, GitLab, npm and AWS
// keys, a PEM private key) and by name (Authorization, a custom session
// header, a cookie), and a missing token: network detail and console
// show where each secret was and how long, never the secret, and show
// the missing token as it was sent, flagged.
func TestRedactionKeepsTheShape(t *testing.T) {
	srv := httptest.NewServer(shapeSite())
	defer srv.Close()
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, srv.URL+"/shape")
	res := waitFor(t, map[string]any{"action": "network", "tabId": tab, "urlContains": "/api/shape"}, func(r map[string]any) bool {
		n := 0
		for _, q := range list(r, "requests") {
			if q["status"] != nil {
				n++
			}
		}
		return n >= 2
	})
	var sent, missing map[string]any
	for _, q := range list(res, "requests") {
		if strings.Contains(q["url"].(string), "/api/shape-missing") {
			missing = q
		} else {
			sent = q
		}
	}
	if sent == nil || missing == nil {
		t.Fatalf("the page's two calls are not both listed: %v", list(res, "requests"))
	}
	secrets := []string{shapeBearer, shapeJWT, ".eyJzdWIiOiJzaGFwZSJ9", shapeStripe, shapeGitHub, shapeGitLab, shapeAWS, shapeNpm, shapeSession, shapeCookie, shapePEMBody}
	var outputs []string
	if u := sent["url"].(string); !strings.Contains(u, "q=shoes") || !strings.Contains(u, "ref=ghp_") {
		t.Errorf("the list's URL lost its shape: %s", u)
	}
	outputs = append(outputs, flat(res))

	d := waitFor(t, map[string]any{"action": "network", "tabId": tab, "requestId": sent["requestId"]}, func(r map[string]any) bool {
		body, _ := r["request"].(map[string]any)["responseBody"].(map[string]any)
		return body != nil && (body["text"] != nil || body["json"] != nil)
	})
	outputs = append(outputs, flat(d))
	req := d["request"].(map[string]any)
	for _, c := range []struct{ list, name, want string }{
		{"requestHeaders", "Authorization", "Bearer [redacted, 40 chars]"},
		{"requestHeaders", "X-Debug", "user=ann jwt [redacted, "},
		{"requestHeaders", "X-Request-Id", "req-kept-1"},
		{"responseHeaders", "X-Session-Id", "[redacted, 15 chars]"},
		{"responseHeaders", "X-Debug", "issued [redacted, "},
		{"responseHeaders", "Set-Cookie", "sid=[redacted, 15 chars]; Path=/"},
	} {
		if v, ok := headerOf(req, c.list, c.name); !ok || !strings.Contains(v, c.want) {
			t.Errorf("%s %s = %q (listed %v), want it to show %q", c.list, c.name, v, ok, c.want)
		}
	}
	detail := flat(req)
	for _, want := range []string{`"jwt":"[redacted, `, `"bearer":"[redacted, 31 chars]"`, `glpat-[redacted, 23 chars]`, `"password":null`, `"keyword":"shoes"`,
		`npm_[redacted, 36 chars]`, `"items":[1,2]`} {
		if !strings.Contains(detail, want) {
			t.Errorf("the detail does not show %s: %s", want, detail)
		}
	}

	m := call(t, map[string]any{"action": "network", "tabId": tab, "requestId": missing["requestId"]})
	outputs = append(outputs, flat(m))
	mreq := m["request"].(map[string]any)
	if v, _ := headerOf(mreq, "requestHeaders", "Authorization"); v != "Bearer undefined [suspicious: empty credential]" {
		t.Errorf("the missing token's Authorization = %q, want it shown and flagged", v)
	}
	if v, _ := headerOf(mreq, "requestHeaders", "X-Api-Key"); v != "null [suspicious: empty credential]" {
		t.Errorf("the null API key = %q, want it shown and flagged", v)
	}

	con := waitFor(t, map[string]any{"action": "console", "tabId": tab}, func(r map[string]any) bool { return len(list(r, "messages")) >= 2 })
	outputs = append(outputs, flat(con))
	var texts []string
	for _, msg := range list(con, "messages") {
		texts = append(texts, msg["text"].(string))
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"config key AKIA[redacted, 16 chars] and ", "-----BEGIN PRIVATE KEY-----[redacted, ", "-----END PRIVATE KEY-----", "Authorization: Bearer undefined"} {
		if !strings.Contains(all, want) {
			t.Errorf("console does not show %q: %q", want, texts)
		}
	}
	for _, out := range outputs {
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("secret %q reached the agent: %s", s, out)
			}
		}
	}
}
