package actions

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func TestLooksLikePayment(t *testing.T) {
	yes := []string{
		"Pay", "Pay now", "Pay €24.99", "Place order", "Place your order", "Buy now", "Buy it now", "Checkout",
		"Proceed to checkout", "Confirm purchase", "Complete purchase", "Order now", "Pay with PayPal", "PayPal",
		"Jetzt kaufen", "Zahlungspflichtig bestellen", "Zur Kasse", "Payer", "Passer la commande", "Confirmer l’achat",
		"Comprar ahora", "Finalizar compra", "Acquista ora", "Procedi all'acquisto", "Afrekenen", "Kup teraz",
		"Złóż zamówienie", "Köp nu", "Satın al", "Оформить заказ", "Купить", "購入する", "注文を確定する",
		"立即购买", "提交订单", "결제하기", "  PLACE   ORDER  ",
	}
	no := []string{
		"", "Payment details", "Display settings", "Sort order", "Ordina per prezzo", "Add to wishlist", "Search",
		"Sign in", "Next", "Zahlen und Fakten", "Repay", "Buyer protection", "Check out our blog",
		strings.Repeat("Read this long paragraph ", 3) + "and then pay",
	}
	for _, s := range yes {
		if !looksLikePayment(s) {
			t.Errorf("%q does not look like a payment", s)
		}
	}
	for _, s := range no {
		if looksLikePayment(s) {
			t.Errorf("%q looks like a payment", s)
		}
	}
}

func TestSite(t *testing.T) {
	for _, tt := range []struct{ url, site string }{
		{"https://shop.example.com/cart", "example.com"},
		{"https://www.example.co.uk/", "example.co.uk"},
		{"http://127.0.0.1:8080/x", "127.0.0.1"},
		{"http://localhost:3000/", "localhost"},
		{"http://[::1]:3000/", "::1"},
		{"https://user.github.io/", "user.github.io"},
		{"about:blank", ""},
		{"chrome://newtab/", ""},
		{"file:///tmp/x.html", ""},
		{"", ""},
	} {
		if got := site(tt.url); got != tt.site {
			t.Errorf("site(%q) = %q, want %q", tt.url, got, tt.site)
		}
	}
	for _, tt := range []struct {
		from, to string
		isNew    bool
	}{
		{"https://shop.example.com/", "https://pay.example.com/x", false},
		{"http://example.com/", "https://example.com:8443/", false},
		{"https://shop.example.com/", "https://evil.example/", true},
		{"http://127.0.0.1:1/", "http://localhost:1/", true},
		{"http://127.0.0.1:1/", "http://127.0.0.1:2/", false},
		{"about:blank", "https://example.com/", true},
		{"", "https://example.com/", true},
		{"https://example.com/", "mailto:a@example.org", false},
		{"https://alice.github.io/", "https://bob.github.io/", true},
	} {
		if got := newSite(tt.from, tt.to); got != tt.isNew {
			t.Errorf("newSite(%q, %q) = %v, want %v", tt.from, tt.to, got, tt.isNew)
		}
	}
}

func TestClassify(t *testing.T) {
	const tab = "https://shop.example.com/cart"
	form := func(action string) *struct {
		Action string `json:"action"`
		Method string `json:"method"`
		Target string `json:"target"`
	} {
		return &struct {
			Action string `json:"action"`
			Method string `json:"method"`
			Target string `json:"target"`
		}{Action: action, Method: "post"}
	}
	tests := []struct {
		name  string
		f     pageFacts
		kind  string // "" for no question
		quest string // a part of the question
	}{
		{"submit button", pageFacts{Found: true, Tag: "button", Label: "Send", Submits: true, Form: form(tab)}, protocol.AskSubmit, "“Send” on shop.example.com, which submits a form"},
		{"payment submit", pageFacts{Found: true, Tag: "button", Label: "Place order", Submits: true, Form: form(tab)}, protocol.AskPayment, "“Place order” on shop.example.com, which looks like a payment"},
		{"payment without a form", pageFacts{Found: true, Tag: "div", Role: "button", Label: "Buy now"}, protocol.AskPayment, "“Buy now”"},
		{"form to another site", pageFacts{Found: true, Tag: "input", Label: "Go", Submits: true, Form: form("https://pay.other.example/charge")}, protocol.AskSubmit, "“Go”"},
		{"link to another site", pageFacts{Found: true, Tag: "a", Label: "Partner", Href: "https://partner.example/x"}, protocol.AskNavigation, "follow the link “Partner” on shop.example.com to partner.example"},
		{"link on the same site", pageFacts{Found: true, Tag: "a", Label: "Help", Href: "https://help.example.com/"}, "", ""},
		{"a span in a link", pageFacts{Found: true, Tag: "a", Label: "", Href: "https://partner.example/"}, protocol.AskNavigation, "leave shop.example.com for partner.example"},
		{"download", pageFacts{Found: true, Tag: "a", Label: "Invoice", Href: "https://cdn.example/i.pdf", Download: true}, "", ""},
		{"javascript link", pageFacts{Found: true, Tag: "a", Label: "Menu", Href: "javascript:void(0)"}, "", ""},
		{"plain button", pageFacts{Found: true, Tag: "button", Type: "button", Label: "Show more"}, "", ""},
		{"a field", pageFacts{Found: true, Tag: "input", Type: "text", Label: "Name"}, "", ""},
		{"nothing", pageFacts{Found: false}, "", ""},
		{"a frame of another origin", pageFacts{Found: true, Opaque: true, FrameURL: "https://js.stripe.example/v3"}, protocol.AskSubmit, "may submit a form"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ok := classify(tt.f, tab)
			if tt.kind == "" {
				if ok {
					t.Fatalf("asks: %+v", s)
				}
				return
			}
			if !ok || s.Kind != tt.kind {
				t.Fatalf("got %+v %v, want kind %s", s, ok, tt.kind)
			}
			if q := s.question("click"); !strings.Contains(q, tt.quest) {
				t.Errorf("question %q does not say %q", q, tt.quest)
			}
		})
	}
	if s, _ := classify(pageFacts{Found: true, Tag: "input", Label: "Go", Submits: true, Form: form("https://pay.other.example/charge")}, tab); !strings.Contains(s.Detail, "pay.other.example") {
		t.Errorf("a form to another site does not say where: %+v", s)
	}
}

func TestNavigationStep(t *testing.T) {
	if _, ok := navigationStep("https://a.example/", "https://www.a.example/x"); ok {
		t.Error("the same site asks")
	}
	s, ok := navigationStep("https://a.example/", "https://b.example/x")
	if !ok || !strings.Contains(s.question("open"), "leave a.example for b.example") {
		t.Errorf("another site: %+v %v %q", s, ok, s.question("open"))
	}
	s, ok = navigationStep("", "https://b.example/x")
	if !ok || s.question("open") != "The agent wants to open b.example" {
		t.Errorf("a new tab: %q", s.question("open"))
	}
	if _, ok := navigationStep("https://a.example/", "file:///tmp/x"); ok {
		t.Error("a file asks as a site")
	}
}

func TestPressKind(t *testing.T) {
	for keys, want := range map[string]string{
		"Enter":           "enter",
		"Shift+Enter":     "enter",
		"a b Enter":       "enter",
		"Space":           "space",
		"Control+Space":   "",
		"Tab":             "",
		"Tab Enter":       "keys",
		"ArrowDown Enter": "keys",
		"Control+A":       "",
		"Escape":          "",
		"Enter Tab":       "enter",
	} {
		if got := pressKind(keys); got != want {
			t.Errorf("pressKind(%q) = %q, want %q", keys, got, want)
		}
	}
}

func TestAskWait(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if w := askWait(ctx); w < 54*time.Second || w > 55*time.Second {
		t.Errorf("a 60 s call gives the user %s", w)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel2()
	if w := askWait(ctx2); w < 2900*time.Millisecond || w > 3*time.Second {
		t.Errorf("a 4 s call gives the user %s", w)
	}
}
