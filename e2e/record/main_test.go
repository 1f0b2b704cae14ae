// Package record tests the developer tools' records against a real
// Chromium with the real extension, host and daemon: console and network
// (docs/design.md#actions), and that no secret a page sends or receives reaches the
// agent or the state folder.
package record

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

var (
	bridge *browsertest.Bridge
	site   string
)

// The secrets of the secrets page: none may appear in any output.
const (
	bearer      = "bearer-s3cr3t-9f8e7d"
	password    = "hunter2-pa55-4c3b"
	accessToken = "tok-acc3ss-1a2b3c"
	cookieValue = "sess-c00kie-5d6e7f"
	// The page's own URL carries refToken, which its requests then send
	// in Referer; it posts phrase in a multipart form and logs jwt.
	refToken = "ref-t0ken-8a9b0c"
	phrase   = "phr4se-multi-7e6d"
	jwt      = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2lnLWp3dC0zYzRk"
	// What the denied sites say: none may reach the agent.
	bankSecret  = "BANK-BALANCE-99999"
	adminSecret = "ADMIN-SECRET-4242"
)

func TestMain(m *testing.M) {
	srv := httptest.NewServer(fixtures())
	site = srv.URL
	code := browsertest.MainWithDevTools(m, &bridge)
	srv.Close()
	os.Exit(code)
}

const consolePage = `<!doctype html><title>console</title>
<script>
console.debug("debug while loading");
console.log("log while loading", {n: 1});
console.info("info while loading");
console.warn("warning while loading");
console.error("error while loading");
</script>
<button id="boom" onclick="setTimeout(() => { throw new Error('thrown after click') }); Promise.reject(new Error('rejected after click')); fetch('http://127.0.0.1:9/refused-after-click')">boom</button>`

const apiPage = `<!doctype html><title>api</title>
<p id="out">waiting</p>
<script>
// After the load: this page checks what webRequest records (request
// bodies of the first moments come from the page's world instead, see
// firstPage).
addEventListener("load", () => setTimeout(async () => {
  const a = await fetch("/api/ok").then((r) => r.json());
  const b = await fetch("/api/fail", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({q: 1})});
  document.getElementById("out").textContent = "done " + a.items.length + " " + b.status;
}, 200));
</script>`

var secretPage = `<!doctype html><title>login</title>
<p id="out">waiting</p>
<script>
(async () => {
  history.replaceState(null, "", "?access_token=` + refToken + `");
  console.log("got " + "` + jwt + `");
  await fetch("/api/echo", {method: "POST", headers: {"Content-Type": "multipart/form-data; boundary=XyZ"},
    body: "--XyZ\r\nContent-Disposition: form-data; name=\"user[passphrase]\"\r\n\r\n` + phrase + `\r\n--XyZ--\r\n"});
  const r = await fetch("/api/login?api_key=` + bearer + `x", {method: "POST",
    headers: {"Authorization": "Bearer ` + bearer + `", "Content-Type": "application/json"},
    body: JSON.stringify({user: "ann", password: "` + password + `"})});
  const j = await r.json();
  await fetch("/api/me");
  document.getElementById("out").textContent = "logged in " + (j.access_token ? "yes" : "no");
})();
</script>`

// firstPage posts from its first inline script, before the new tab can be
// known to be the bridge's: a fetch and an XHR, each with a string body.
const firstPage = `<!doctype html><script>
fetch("/api/echo?via=fetch", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({via: "fetch", sent: "first moments"})});
const x = new XMLHttpRequest();
x.open("POST", "/api/echo?via=xhr");
x.setRequestHeader("Content-Type", "text/plain");
x.send("via=xhr; sent=first moments");
</script><title>first</title><p>first</p>`

func fixtures() http.Handler {
	mux := http.NewServeMux()
	page := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, body)
		}
	}
	mux.Handle("/console", page(consolePage))
	mux.Handle("/api-page", page(apiPage))
	mux.Handle("/secrets", page(secretPage))
	mux.Handle("/first", page(firstPage))
	mux.Handle("/native", page(nativePage))
	// A button whose call is answered slowly, its body in two parts; the
	// page shows each answer as soon as it has read it.
	mux.Handle("/race", page(`<!doctype html><title>race</title><button id="go">go</button><p id="out">none</p><script>
let n = 0;
document.getElementById("go").onclick = async () => {
  const i = ++n;
  const j = await fetch("/api/slow?i=" + i).then((r) => r.json());
  document.getElementById("out").textContent = "shown " + i + " " + j.items.length;
};
</script>`))
	mux.HandleFunc("/api/slow", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"items":[1,`)
		w.(http.Flusher).Flush()
		time.Sleep(50 * time.Millisecond)
		fmt.Fprint(w, `2,3]}`)
	})
	// A site the rules tests deny (reached as localhost, while the other
	// pages are 127.0.0.1's): it posts a secret and logs it.
	mux.Handle("/bank", page(`<!doctype html><title>bank</title><script>
console.log("bank says `+bankSecret+`");
fetch("/api/echo?bank=1", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({balance: "`+bankSecret+`"})}).then((r) => r.text()).then(() => { document.title = "bank done"; });
</script><p>bank</p>`))
	// An allowed page that frames the denied site, and one that reads a
	// denied path of its own site.
	mux.HandleFunc("/framed", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>framed</title><p>shop</p><iframe src="http://localhost:%s/bank"></iframe>`, portOf(r.Host))
	})
	mux.Handle("/admin-reader", page(`<!doctype html><title>reader</title><p id="out">waiting</p><script>
fetch("/admin/api").then((r) => r.text()).then((t) => { document.getElementById("out").textContent = "read " + t.length; },
  () => { document.getElementById("out").textContent = "refused"; });
</script>`))
	mux.HandleFunc("/admin/api", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"secret":"`+adminSecret+`"}`)
	})
	// Pages that would make the worker hold a lot: fetches of huge URLs
	// (n of kb KB each, no-cors: they leave at once), and responses of
	// 200 KB of headers.
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>huge</title><p id="out">waiting</p><script>
const pad = "x".repeat(%d * 1024);
Promise.all(Array.from({length: %d}, (_, i) => fetch("/api/ok?i=" + i + "&pad=" + pad, {mode: "no-cors"})))
  .then(() => { document.getElementById("out").textContent = "done"; });
</script>`, atoi(r.URL.Query().Get("kb")), atoi(r.URL.Query().Get("n")))
	})
	mux.HandleFunc("/fat-page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>fat</title><p id="out">waiting</p><script>
(async () => {
  for (let i = 0; i < %d; i += 20) await Promise.all(Array.from({length: 20}, (_, j) => fetch("/fat?i=" + (i + j)).then((r) => r.blob())));
  document.getElementById("out").textContent = "done";
})();
</script>`, atoi(r.URL.Query().Get("n")))
	})
	mux.HandleFunc("/fat", func(w http.ResponseWriter, r *http.Request) {
		fat := strings.Repeat("y", 2000)
		for i := range 100 {
			w.Header().Set(fmt.Sprintf("X-Fat-%d", i), fat)
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		fmt.Fprint(w, "fat")
	})
	// The same call made again and again, each answered with its own
	// body back.
	mux.Handle("/echoes", page(`<!doctype html><title>echoes</title><p id="out">waiting</p><script>
(async () => {
  for (let i = 0; i < 8; i++) {
    await fetch("/api/mirror", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({n: i})}).then((r) => r.text());
    await new Promise((ok) => setTimeout(ok, 30));
  }
  document.getElementById("out").textContent = "done";
})();
</script>`))
	mux.HandleFunc("/api/mirror", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.Copy(w, r.Body)
	})
	// A page whose frame logs and fetches.
	mux.Handle("/frame-fetch", page(`<!doctype html><title>frame fetch</title><iframe src="/frame-child"></iframe>`))
	mux.Handle("/frame-child", page(`<!doctype html><p>child</p><script>
console.log("said in the frame");
fetch("/api/ok?from=frame").then((r) => r.text());
</script>`))
	// A page that logs, with a same-origin and a cross-origin (localhost)
	// frame that log too.
	mux.HandleFunc("/frames-log", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>frames log</title><script>console.log("said by the top");</script>
<iframe src="/frame-log?who=same"></iframe><iframe src="http://localhost:%s/frame-log?who=cross"></iframe>`, portOf(r.Host))
	})
	mux.HandleFunc("/frame-log", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><p>frame</p><script>console.warn("said by the %s frame");</script>`, r.URL.Query().Get("who"))
	})
	// A page that logs lines, one of them with secrets in it.
	mux.Handle("/keep", page(`<!doctype html><title>keep</title><script>
console.log("kept line 1");
console.warn("kept line 2 password: `+password+` and `+jwt+`");
</script>`))
	// A document its server says not to store, as many apps serve HTML.
	// Each load of one ?id is counted, and the page says which it is and
	// whether it came with the cookie its first load set; with ?then=N
	// the loads after the first answer status N (a 3xx to /console), with
	// ?slow they take 8 s.
	noStoreHits := map[string]int{}
	var noStoreMu sync.Mutex
	mux.HandleFunc("/no-store", func(w http.ResponseWriter, r *http.Request) {
		id := r.URL.Query().Get("id")
		noStoreMu.Lock()
		noStoreHits[id]++
		n := noStoreHits[id]
		noStoreMu.Unlock()
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, err := r.Cookie("seen-" + id)
		http.SetCookie(w, &http.Cookie{Name: "seen-" + id, Value: "1"})
		if n > 1 && r.URL.Query().Has("slow") {
			time.Sleep(8 * time.Second)
		}
		if then := atoi(r.URL.Query().Get("then")); n > 1 && then > 0 {
			if then/100 == 3 {
				w.Header().Set("Location", "/console")
			}
			w.WriteHeader(then)
		}
		fmt.Fprintf(w, `<!doctype html><title>no-store</title><p>served not to be stored, load %d, cookie %v</p>`, n, err == nil)
	})
	mux.HandleFunc("/no-store/hits", func(w http.ResponseWriter, r *http.Request) {
		noStoreMu.Lock()
		defer noStoreMu.Unlock()
		fmt.Fprint(w, noStoreHits[r.URL.Query().Get("id")])
	})
	// A form whose POST result is a no-store document.
	mux.Handle("/no-store/form", page(`<!doctype html><title>form</title>
<form method="post" action="/no-store?id=post"><input name="q" value="1"><button id="send">send</button></form>`))
	mux.HandleFunc("/api/echo", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
	})
	mux.HandleFunc("/api/ok", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"items":[1,2,3]}`)
	})
	mux.HandleFunc("/api/fail", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(500)
		fmt.Fprint(w, `{"error":"database on fire","code":"E_FIRE"}`)
	})
	mux.HandleFunc("/api/login", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		http.SetCookie(w, &http.Cookie{Name: "session", Value: cookieValue, Path: "/"})
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":"%s","token_type":"bearer","expires_in":3600}`, accessToken)
	})
	mux.HandleFunc("/api/me", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"name":"ann"}`)
	})
	// Many lines and requests, for the benchmarks.
	mux.HandleFunc("/many", func(w http.ResponseWriter, r *http.Request) {
		n := r.URL.Query().Get("n")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>many</title><p id="out">waiting</p><script>
const n = %s;
const log = () => { for (let i = 0; i < n; i++) console.log("line " + i + " of the log of a busy page"); };
// after=1: once the page has loaded (the leak benchmark opens 50 such
// pages one after another on a busy machine).
if (location.search.includes("after=1")) addEventListener("load", () => setTimeout(log, 100)); else log();
(async () => {
  const reqs = %s;
  for (let i = 0; i < reqs; i += 50) await Promise.all(Array.from({length: 50}, (_, j) => fetch("/api/ok?i=" + (i + j))));
  document.getElementById("out").textContent = "done";
})();
</script>`, strings.TrimSpace(n), strings.TrimSpace(orDefault(r.URL.Query().Get("reqs"), "0")))
	})
	return mux
}

// atoi is s as a number, 0 when it is none.
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// portOf is the port of a host:port.
func portOf(host string) string {
	_, port, _ := strings.Cut(host, ":")
	return port
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func workspace(t testing.TB) string {
	return bridge.Workspace(t, "record-"+strings.NewReplacer("/", "-", " ", "-").Replace(t.Name()))
}

func call(t testing.TB, input map[string]any) map[string]any {
	t.Helper()
	r := bridge.Call(t, input)
	if r.Exit != 0 || r.Err != nil || r.JSON == nil {
		t.Fatalf("call %v: exit %d, stdout %s, stderr %s", input, r.Exit, r.Stdout, r.Stderr)
	}
	return r.JSON
}

func list(m map[string]any, key string) []map[string]any {
	raw, _ := m[key].([]any)
	out := make([]map[string]any, 0, len(raw))
	for _, v := range raw {
		if mm, ok := v.(map[string]any); ok {
			out = append(out, mm)
		}
	}
	return out
}
