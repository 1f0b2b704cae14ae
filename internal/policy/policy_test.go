package policy

import (
	"slices"
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	for _, tt := range []struct {
		pattern, url string
		want         bool
	}{
		{"example.com", "https://example.com/", true},
		{"example.com", "https://www.example.com/a", true},
		{"example.com", "https://EXAMPLE.com/", true},
		{"example.com", "https://notexample.com/", false},
		{"example.com", "https://example.com.evil.net/", false},
		{"*.example.com", "https://a.b.example.com/", true},
		{"*.example.com", "https://example.com/", false},
		{"example.com/admin/*", "https://example.com/admin/users", true},
		{"example.com/admin/*", "https://example.com/public", false},
		{"example.com/admin*", "https://example.com/admin", true},
		{"localhost:8080", "http://localhost:8080/x", true},
		{"localhost:8080", "http://localhost:9090/x", false},
		{"localhost", "http://localhost:9090/x", true},
		{"example.com:443", "https://example.com/", true},
		{"https://example.com/pay/*", "https://example.com/pay/now", true},
		{"https://example.com/pay/*", "http://example.com/pay/now", false},
		{"HTTPS://example.com/*", "https://example.com/x", true},
		{"chrome://*", "chrome://settings/", true},
		{"view-source:*", "view-source:https://example.com/", true},
		{"chrome-extension://*", "chrome-extension://abc/popup.html", true},
		{"chromewebstore.google.com", "https://chromewebstore.google.com/detail/x", true},
		{"chrome.google.com/webstore*", "https://chrome.google.com/webstore/detail/x", true},
		{"chrome.google.com/webstore*", "https://chrome.google.com/search", false},
		{"example.com", "file:///example.com/x", false},
		{"file:///home/*", "file:///home/me/a.html", true},
		{"*", "https://anything.org/", true},
		{"", "https://example.com/", false},
	} {
		if got := Match(tt.pattern, tt.url); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.pattern, tt.url, got, tt.want)
		}
	}
}

func TestCheck(t *testing.T) {
	r := Rules{Deny: []string{"bank.example"}}
	if d := r.Check("https://www.bank.example/login"); d.Allowed || d.Rule != "bank.example" || !strings.Contains(d.Why, `"bank.example"`) {
		t.Errorf("deny: %+v", d)
	}
	if d := r.Check("https://news.example/"); !d.Allowed {
		t.Errorf("ordinary site: %+v", d)
	}
	for _, u := range []string{"chrome://settings", "https://chromewebstore.google.com/", "chrome-extension://x/y"} {
		if d := (Rules{Allow: []string{"*"}}).Check(u); d.Allowed || !strings.Contains(d.Why, "built-in") {
			t.Errorf("%s: %+v, want the built-in deny to win over allow", u, d)
		}
	}
	only := Rules{Allow: []string{"docs.example", "localhost"}, Deny: []string{"docs.example/private/*"}}
	for u, want := range map[string]bool{
		"https://docs.example/a":         true,
		"http://localhost:3000/":         true,
		"https://docs.example/private/x": false, // deny wins
		"https://other.example/":         false, // not allowed
		"about:blank":                    true,
		"":                               true,
	} {
		if d := only.Check(u); d.Allowed != want {
			t.Errorf("allow list: %s = %+v, want %v", u, d, want)
		}
	}
	if d := only.Check("https://other.example/"); !strings.Contains(d.Why, "allow list") {
		t.Errorf("why: %q", d.Why)
	}
	if d := r.Check("http://[::1"); d.Allowed {
		t.Errorf("an unparsable URL was allowed")
	}
}

func TestAddRemove(t *testing.T) {
	var r Rules
	if ch, err := r.Add("deny", "a.example"); !ch || err != nil {
		t.Fatal(ch, err)
	}
	if ch, _ := r.Add("deny", "a.example"); ch {
		t.Error("added twice")
	}
	if ch, _ := r.Add("allow", "a.example"); !ch || len(r.Deny) != 0 || len(r.Allow) != 1 {
		t.Errorf("allow did not move it off deny: %+v", r)
	}
	if !r.Remove("a.example") || r.Remove("a.example") {
		t.Errorf("remove: %+v", r)
	}
	for _, bad := range []string{"", " a.example", "a b", "a**b", "[x"} {
		if _, err := r.Add("deny", bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := r.Add("maybe", "a.example"); err == nil {
		t.Error("unknown list accepted")
	}
}

// FuzzCheck: any pattern and URL get a decision without a panic, a
// refusal says why, and a URL is judged as its one spelling is (sites is
// idempotent): no rule is passed by writing the same URL another way.
func FuzzCheck(f *testing.F) {
	f.Add("example.com/admin/*", "https://example.com/admin/x?y=1")
	f.Add("*.x", "chrome://settings")
	f.Add("localhost", "http://LocalHost..:8080/%61dmin//x/../y")
	f.Add("127.0.0.1", "http://[::ffff:127.0.0.1]:80/")
	f.Add("127.0.0.1/admin/*", "http://x@0x7f.1/x/..%2Fadmin%2fy")
	f.Add("http://127.0.0.1:8080/admin/*", "http:\\\\2130706433:08080\\admin\\x")
	f.Add("bücher.de", "https://BÜCHER.de./")
	f.Fuzz(func(t *testing.T, pattern, u string) {
		r := Rules{Deny: []string{pattern}}
		d := r.Check(u)
		if !d.Allowed && d.Why == "" {
			t.Fatalf("refused without saying why: %q %q", pattern, u)
		}
		views, err := sites(u)
		if err != nil {
			return
		}
		again, err := sites(views[0].href)
		if err != nil {
			t.Fatalf("%q reads as %q, which does not read: %v", u, views[0].href, err)
		}
		if !slices.Equal(again, views) {
			t.Fatalf("%q reads as %+v, and that as %+v", u, views, again)
		}
		if d2 := r.Check(views[0].href); d2.Allowed != d.Allowed {
			t.Fatalf("deny %q: %q is %+v but its spelling %q is %+v", pattern, u, d, views[0].href, d2)
		}
	})
}
