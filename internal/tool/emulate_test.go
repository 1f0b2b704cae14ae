package tool

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// Bad values are invalid_argument naming the valid ones; good ones pass.
func TestCheckEmulate(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // "" : accepted
	}{
		{`{"action":"emulate","device":"pixel-8"}`, ""},
		{`{"action":"emulate","cpuThrottling":4,"network":"slow-3g","colorScheme":"dark","reducedMotion":"reduce"}`, ""},
		{`{"action":"emulate","network":{"latencyMs":300,"downloadKbps":1000}}`, ""},
		{`{"action":"emulate","reset":true}`, ""},
		{`{"action":"emulate","device":"nokia"}`, "iphone-15, pixel-8, galaxy-s24, ipad, laptop, desktop"},
		{`{"action":"emulate","cpuThrottling":0.5}`, "between 1 (none) and 20"},
		{`{"action":"emulate","network":"4g"}`, `"offline", "slow-3g", "fast-3g", "slow-4g", "none"`},
		{`{"action":"emulate","network":{}}`, "latencyMs, downloadKbps, uploadKbps"},
		{`{"action":"emulate","network":{"latencyMs":"fast"}}`, "network.latencyMs must be a number"},
		{`{"action":"emulate","network":{"latency":5}}`, `no field "latency"`},
		{`{"action":"emulate","network":7}`, "network must be one of"},
		{`{"action":"emulate","colorScheme":"sepia"}`, `"light" or "dark"`},
		{`{"action":"emulate","reset":true,"device":"ipad"}`, "give it alone"},
	} {
		in, _, err := Parse([]byte(c.in))
		if err == nil {
			err = in.CheckEmulate()
		}
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.in, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want an error saying %q", c.in, err, c.want)
		}
	}
}

// The device table of docs/reference.md lists every preset with its size.
func TestDevicesAreDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/reference.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range Devices {
		row := "| `" + d.Name + "` | "
		i := strings.Index(string(b), row)
		if i < 0 {
			t.Errorf("docs/reference.md's device table has no row for %s", d.Name)
			continue
		}
		line, _, _ := strings.Cut(string(b)[i:], "\n")
		if size := strings.Fields(line)[3]; size != strconv.Itoa(d.Width)+"×"+strconv.Itoa(d.Height) {
			t.Errorf("docs/reference.md gives %s the size %s, want %d×%d", d.Name, size, d.Width, d.Height)
		}
	}
}
