package actions

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"unicode"

	"golang.org/x/net/publicsuffix"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// The classifier of the "ask before irreversible steps" mode (ask.go):
// from what page/irreversible.js saw of the element an action is about to
// press (pageFacts), whether the press submits a form, looks like a
// payment, or leads to another site. It runs without a browser, so its
// unit tests cover the words and the sites.

// pageFacts is page/irreversible.js's answer about one element.
type pageFacts struct {
	Found bool   `json:"found"`
	Tag   string `json:"tag"`
	Type  string `json:"type"`
	Role  string `json:"role"`
	// Label is the accessible name or text of what takes the press (the
	// button a <span> is in).
	Label string `json:"label"`
	// Submits: pressing it submits Form.
	Submits bool `json:"submits"`
	Form    *struct {
		Action string `json:"action"`
		Method string `json:"method"`
		Target string `json:"target"`
	} `json:"form"`
	// Href is the link the element is (or is in), resolved.
	Href     string `json:"href"`
	Target   string `json:"target"`
	Download bool   `json:"download"`
	// Opaque: the point or focus is inside a frame of another origin,
	// whose src is FrameURL; the script cannot see what is there.
	Opaque   bool   `json:"opaque"`
	FrameURL string `json:"frameUrl"`
	// URL is the document the element is in.
	URL string `json:"url"`
}

// step is an irreversible step, as the user is asked about it.
type step struct {
	Kind   string // protocol.AskSubmit, AskPayment, AskNavigation
	Label  string // what is pressed: “Place order”
	Where  string // the site it is pressed on: shop.example
	To     string // the site a navigation or a form goes to, when another
	Detail string
}

// maxLabel is the longest label read for payment words: past it, the
// "label" is a paragraph that happens to hold a button, not a button's.
const maxLabel = 80

// classify says whether pressing the element of f (how: "click", "enter",
// "space", "keys" for several chords) on the tab at tabURL is a step to
// ask about.
func classify(f pageFacts, tabURL string) (step, bool) {
	where := siteLabel(tabURL)
	if f.Opaque {
		return step{Kind: protocol.AskSubmit, Where: where, Label: "",
			Detail: "The press lands in a frame from " + orUnknown(siteLabel(f.FrameURL)) + " that the bridge cannot look into."}, true
	}
	if !f.Found {
		return step{}, false
	}
	label := strings.TrimSpace(f.Label)
	s := step{Label: shorten(label, 60), Where: where}
	if f.Submits && f.Form != nil {
		s.Kind = protocol.AskSubmit
		if looksLikePayment(label) {
			s.Kind = protocol.AskPayment
		}
		if isWeb(f.Form.Action) && newSite(tabURL, f.Form.Action) {
			s.To = siteLabel(f.Form.Action)
			s.Detail = "The form is sent to " + s.To + "."
		}
		return s, true
	}
	if looksLikePayment(label) {
		s.Kind = protocol.AskPayment
		return s, true
	}
	if f.Href != "" && !f.Download && isWeb(f.Href) && newSite(tabURL, f.Href) {
		s.Kind = protocol.AskNavigation
		s.To = siteLabel(f.Href)
		s.Detail = shorten(f.Href, 200)
		return s, true
	}
	return step{}, false
}

// navigationStep is the step of loading dest in a tab at from ("" for a
// new tab), when dest is on another site.
func navigationStep(from, dest string) (step, bool) {
	if !isWeb(dest) || !newSite(from, dest) {
		return step{}, false
	}
	return step{Kind: protocol.AskNavigation, Where: siteLabel(from), To: siteLabel(dest), Detail: shorten(dest, 200)}, true
}

// question is the sentence the user is asked.
func (s step) question(action string) string {
	on := ""
	if s.Where != "" {
		on = " on " + s.Where
	}
	what := "press"
	if action == "click" {
		what = "click"
	}
	label := "a button"
	if s.Label != "" {
		label = "“" + s.Label + "”"
	}
	switch s.Kind {
	case protocol.AskNavigation:
		if s.Label != "" {
			return fmt.Sprintf("The agent wants to follow the link %s%s to %s", label, on, s.To)
		}
		if s.Where == "" {
			return "The agent wants to open " + s.To
		}
		return fmt.Sprintf("The agent wants to leave %s for %s", s.Where, s.To)
	case protocol.AskPayment:
		return fmt.Sprintf("The agent wants to %s %s%s, which looks like a payment or an order", what, label, on)
	}
	if s.Label == "" && s.Detail != "" {
		return fmt.Sprintf("The agent wants to %s something%s that may submit a form", what, on)
	}
	return fmt.Sprintf("The agent wants to %s %s%s, which submits a form", what, label, on)
}

// isWeb says u is an http or https URL: a navigation to a site (mailto:,
// javascript:, blob: and the like lead to no other site).
func isWeb(u string) bool {
	p, err := url.Parse(u)
	return err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.Hostname() != ""
}

// site is the registrable domain of u's host ("shop.example.co.uk" →
// "example.co.uk"); an IP address or a single-label host (localhost) is
// its own site; "" for a URL without a host (about:blank, file:, the
// browser's own pages).
func site(u string) string {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") {
		return ""
	}
	host := strings.TrimSuffix(strings.ToLower(p.Hostname()), ".")
	if host == "" {
		return ""
	}
	if net.ParseIP(host) != nil || !strings.Contains(host, ".") {
		return host
	}
	if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return d
	}
	return host // a public suffix itself
}

// newSite says dest is on another site than from: another registrable
// domain (the port and the scheme do not count), or any site when from
// has none (a new tab, about:blank).
func newSite(from, dest string) bool {
	d := site(dest)
	return d != "" && d != site(from)
}

// siteLabel is the host of u as the user knows it, for the question.
func siteLabel(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return ""
	}
	return strings.TrimPrefix(p.Host, "www.")
}

func orUnknown(s string) string {
	if s == "" {
		return "another origin"
	}
	return s
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// paymentPhrases are the labels of buttons that pay or order, in several
// languages, lower case. A phrase matches whole words of a label; one in a
// script written without spaces (Chinese, Japanese) matches anywhere in
// it. Words that mean something else too stay out ("order" alone sorts a
// list; Italian "ordina" sorts too; German "zahlen" are numbers).
var paymentPhrases = []string{
	// English
	"pay", "pay now", "buy", "buy now", "purchase", "place order", "place your order", "complete order",
	"complete purchase", "confirm order", "confirm purchase", "confirm payment", "submit order", "order now",
	"checkout", "proceed to checkout", "proceed to payment", "make payment", "make a payment",
	"send money", "send payment", "transfer money", "donate", "book now", "complete booking", "confirm booking",
	"subscribe and pay", "start subscription", "upgrade now", "paypal", "apple pay", "google pay", "g pay",
	// German
	"bezahlen", "jetzt bezahlen", "jetzt zahlen", "kaufen", "jetzt kaufen", "kostenpflichtig bestellen",
	"zahlungspflichtig bestellen", "bestellen", "jetzt bestellen", "bestellung abschicken", "bestellung aufgeben",
	"kauf abschließen", "zur kasse", "kasse", "überweisen", "spenden",
	// French
	"payer", "acheter", "commander", "passer la commande", "passer commande", "valider la commande",
	"valider ma commande", "confirmer la commande", "confirmer l'achat", "confirmer le paiement",
	"finaliser la commande", "régler", "paiement", "faire un don",
	// Spanish
	"pagar", "comprar", "comprar ahora", "realizar pedido", "hacer pedido", "confirmar compra",
	"confirmar pedido", "finalizar compra", "tramitar pedido", "donar",
	// Italian
	"paga", "paga ora", "acquista", "acquista ora", "compra", "compra ora", "ordina ora", "conferma ordine",
	"conferma l'ordine", "conferma acquisto", "procedi all'acquisto", "procedi al pagamento", "invia ordine",
	// Portuguese
	"finalizar pedido", "fazer pedido", "confirmar pagamento", "comprar agora", "pagar agora",
	// Dutch
	"betalen", "nu betalen", "kopen", "nu kopen", "afrekenen", "bestelling plaatsen", "bestellen en betalen",
	// Polish
	"zapłać", "zapłać teraz", "kup", "kup teraz", "kupuję", "kupuję i płacę", "zamawiam", "zamów",
	"złóż zamówienie", "zamawiam i płacę",
	// Swedish, Danish, Norwegian, Finnish
	"betala", "köp", "köp nu", "beställ", "slutför köp", "slutför köpet", "till kassan",
	"betal", "køb", "køb nu", "bestil", "gå til kassen", "kjøp", "bestill", "til kassen",
	"maksa", "osta", "tilaa", "vahvista tilaus",
	// Czech, Turkish
	"zaplatit", "koupit", "objednat", "dokončit objednávku", "odeslat objednávku",
	"öde", "ödeme yap", "satın al", "sipariş ver", "siparişi tamamla", "siparişi onayla",
	// Russian, Ukrainian
	"оплатить", "купить", "заказать", "оформить заказ", "подтвердить заказ", "перейти к оплате",
	"оплатити", "купити", "замовити", "оформити замовлення",
	// Greek, Arabic, Hebrew, Hindi
	"πληρωμή", "αγορά", "ολοκλήρωση παραγγελίας",
	"ادفع", "شراء", "اشتر الآن", "إتمام الطلب", "إتمام الشراء",
	"לתשלום", "קנה", "קנה עכשיו", "בצע הזמנה",
	"भुगतान करें", "खरीदें", "अभी खरीदें", "ऑर्डर करें",
	// Japanese, Chinese, Korean (matched anywhere)
	"購入", "注文を確定", "注文する", "支払う", "支払い", "レジに進む", "お支払い",
	"支付", "付款", "购买", "立即购买", "提交订单", "结算", "下单", "購買", "結帳", "提交訂單", "立即購買",
	"결제", "구매", "주문하기",
}

// looksLikePayment says whether label is that of a button that pays or
// orders.
func looksLikePayment(label string) bool {
	if label == "" || len([]rune(label)) > maxLabel {
		return false
	}
	lower := strings.ToLower(label)
	words := strings.FieldsFunc(lower, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r) && r != '\'' && r != '’' && !unicode.Is(unicode.Mn, r) && !unicode.Is(unicode.Mc, r)
	})
	for i, w := range words {
		words[i] = strings.Trim(strings.ReplaceAll(w, "’", "'"), "'")
	}
	for _, p := range paymentPhrases {
		if unspaced(p) {
			if strings.Contains(lower, p) {
				return true
			}
			continue
		}
		if hasPhrase(words, strings.Fields(p)) {
			return true
		}
	}
	return false
}

// unspaced says p is written in a script without spaces between words.
func unspaced(p string) bool {
	for _, r := range p {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			return true
		}
	}
	return false
}

func hasPhrase(words, phrase []string) bool {
	for i := 0; i+len(phrase) <= len(words); i++ {
		match := true
		for j, p := range phrase {
			if words[i+j] != p {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}
