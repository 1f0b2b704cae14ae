package replay

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"io"
	"strconv"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/redact"
)

// stepScript steps through the replay with the arrow keys (and Home,
// End). It is the page's only script, allowed by its hash.
const stepScript = `(function () {
  var steps = document.querySelectorAll(".step");
  var at = steps.length - 1;
  function show(i) {
    if (i < 0 || i >= steps.length) return;
    steps[at].classList.remove("current");
    at = i;
    steps[at].classList.add("current");
    steps[at].scrollIntoView({block: "nearest"});
    document.getElementById("big").src = steps[at].dataset.img || "";
    document.getElementById("big").hidden = !steps[at].dataset.img;
    document.getElementById("caption").textContent = steps[at].dataset.caption;
  }
  document.addEventListener("keydown", function (e) {
    if (e.key === "ArrowRight" || e.key === "ArrowDown") { show(at + 1); e.preventDefault(); }
    if (e.key === "ArrowLeft" || e.key === "ArrowUp") { show(at - 1); e.preventDefault(); }
    if (e.key === "Home") show(0);
    if (e.key === "End") show(steps.length - 1);
  });
  steps.forEach(function (s, i) { s.addEventListener("click", function () { show(i); }); });
  if (steps.length) { steps[at].classList.add("current"); show(0); }
})();`

// csp is the page's policy: nothing is loaded from anywhere; images only
// from data: URLs, the style and the one script inline.
var csp = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-" + scriptHash() + "'; base-uri 'none'; form-action 'none'"

func scriptHash() string {
	h := sha256.Sum256([]byte(stepScript))
	return base64.StdEncoding.EncodeToString(h[:])
}

var page = template.Must(template.New("replay").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}">
<meta name="referrer" content="no-referrer">
<title>Replay of {{.Title}}</title>
<style>
body{font:14px system-ui,sans-serif;margin:0;display:flex;height:100vh;color:#222}
#list{width:360px;overflow:auto;border-right:1px solid #ccc;margin:0;padding:0;list-style:none}
.step{padding:6px 8px;border-bottom:1px solid #eee;cursor:pointer;display:flex;gap:8px}
.step.current{background:#e6f0ff}
.step img{width:96px;height:auto;border:1px solid #ccc;flex:none}
.step .none{width:96px;height:60px;background:#f4f4f4;flex:none}
.fail{color:#b00020}
.meta{color:#666;font-size:12px}
#view{flex:1;padding:12px;overflow:auto}
#view img{max-width:100%;border:1px solid #ccc}
</style></head><body>
<ol id="list">
{{range .Steps}}<li class="step" data-caption="{{.Caption}}"{{if .Img}} data-img="{{.Img}}"{{end}}>
{{if .Img}}<img alt="" src="{{.Img}}">{{else}}<div class="none"></div>{{end}}
<div><b>{{.N}}. {{.Action}}</b> {{.Target}}<br>
<span class="{{if .Failed}}fail{{end}}">{{.Outcome}}</span> <span class="meta">{{.Time}}</span><br>
<span class="meta">{{.Page}}</span></div></li>
{{end}}</ol>
<main id="view"><p>Replay of <b>{{.Title}}</b>: {{len .Steps}} steps. Arrow keys step through them.</p>
<p id="caption"></p><img id="big" alt="" hidden></main>
<script>` + stepScript + `</script>
</body></html>
`))

type htmlStep struct {
	N                                   int
	Action, Target, Outcome, Time, Page string
	Caption                             string
	Failed                              bool
	Img                                 template.URL
}

// WriteHTML writes t as one self-contained page: every capture inline as
// a data: URL, a policy that forbids loading anything, every text from
// the page escaped. image gives each entry's capture (nil: none).
func WriteHTML(w io.Writer, t Timeline, image func(Entry) []byte) error {
	data := struct {
		CSP, Title string
		Steps      []htmlStep
	}{CSP: csp, Title: t.Workspace}
	for i, e := range t.Entries {
		s := htmlStep{N: i + 1, Action: e.Action, Target: e.Target, Outcome: e.Outcome(), Failed: e.Code != "",
			Time: e.Time.Local().Format(time.DateTime)}
		if e.URL != "" || e.Title != "" {
			s.Page = e.Title + " " + redact.URL(e.URL)
		}
		s.Caption = caption(i+1, e)
		if img := image(e); img != nil {
			// Only JPEG bytes become an image: a data: URL of
			// another type is never written.
			if isJPEG(img) {
				s.Img = template.URL("data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(img))
			}
		}
		data.Steps = append(data.Steps, s)
	}
	return page.Execute(w, data)
}

// caption is the one line that describes step n.
func caption(n int, e Entry) string {
	s := itoa(n) + ". " + e.Action
	if e.Target != "" {
		s += " " + e.Target
	}
	return s + " - " + e.Outcome()
}

func itoa(n int) string { return strconv.Itoa(n) }

// isJPEG says whether b starts as a JPEG file does.
func isJPEG(b []byte) bool { return len(b) > 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF }
