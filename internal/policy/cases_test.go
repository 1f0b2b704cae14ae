package policy

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// cases is testdata/cases.json: the semantics of the site rules, which the
// extension's twin (extension/handlers/siterules.js) is checked against too.
type cases struct {
	Match []struct {
		Pattern string `json:"pattern"`
		URL     string `json:"url"`
		Want    bool   `json:"want"`
	} `json:"match"`
	Check []struct {
		Allow   []string `json:"allow"`
		Deny    []string `json:"deny"`
		URL     string   `json:"url"`
		Allowed bool     `json:"allowed"`
		Rule    string   `json:"rule"`
		Why     string   `json:"why"`
	} `json:"check"`
}

func TestSharedCases(t *testing.T) {
	b, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var c cases
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Match) == 0 || len(c.Check) == 0 {
		t.Fatal("no cases")
	}
	for _, tt := range c.Match {
		if got := Match(tt.Pattern, tt.URL); got != tt.Want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.Pattern, tt.URL, got, tt.Want)
		}
	}
	for _, tt := range c.Check {
		d := Rules{Allow: tt.Allow, Deny: tt.Deny}.Check(tt.URL)
		if d.Allowed != tt.Allowed || d.Rule != tt.Rule || !strings.Contains(d.Why, tt.Why) {
			t.Errorf("allow %q deny %q: Check(%q) = %+v, want allowed %v, rule %q, why with %q", tt.Allow, tt.Deny, tt.URL, d, tt.Allowed, tt.Rule, tt.Why)
		}
	}
}
