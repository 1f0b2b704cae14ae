package keys

import (
	"strconv"
	"strings"
	"testing"
)

func TestParseKeys(t *testing.T) {
	tests := []struct {
		in   string
		want string // key/code/keyCode/modifiers of each chord's main key
	}{
		{"Enter", "Enter/Enter/13/0"},
		{"Control+A", "a/KeyA/65/2"},
		{"Shift+Tab", "Tab/Tab/9/8"},
		{"Meta+K", "k/KeyK/75/4"},
		{"Shift+a", "A/KeyA/65/8"},
		{"ArrowDown Escape", "ArrowDown/ArrowDown/40/0 Escape/Escape/27/0"},
		{"Ctrl+Shift+Z", "Z/KeyZ/90/10"},
		{"A", "A/KeyA/65/0"},
		{"Control++", "+//0/2"},
		{"+", "+//0/0"},
		{"F5", "F5/F5/116/0"},
		{"7", "7/Digit7/55/0"},
		{"Shift+1", "!/Digit1/49/8"},
		{"Shift+/", "?/Slash/191/8"},
		{"Control+Shift+1", "!/Digit1/49/10"},
		{"Control", "Control/ControlLeft/17/2"},
	}
	for _, tt := range tests {
		cs, err := Parse(tt.in)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		var got []string
		for _, c := range cs {
			got = append(got, strings.Join([]string{c.key.Key, c.key.Code, strconv.Itoa(c.key.KeyCode), strconv.Itoa(c.bits)}, "/"))
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%q: %s, want %s", tt.in, strings.Join(got, " "), tt.want)
		}
	}
	for _, bad := range []string{"", "Hyper+Q", "hello", "Control+Foo"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestChordEvents(t *testing.T) {
	cs, _ := Parse("Control+A")
	ev := cs[0].Events()
	var seq []string
	for _, e := range ev {
		seq = append(seq, e.Type+":"+e.Key+":"+strconv.Itoa(e.Modifiers))
		if e.Text != "" {
			t.Errorf("a shortcut must not type text: %+v", e)
		}
	}
	want := "rawKeyDown:Control:2 rawKeyDown:a:2 keyUp:a:2 keyUp:Control:0"
	if strings.Join(seq, " ") != want {
		t.Fatalf("events %s, want %s", strings.Join(seq, " "), want)
	}
	cs, _ = Parse("Enter")
	if e := cs[0].Events()[0]; e.Type != "keyDown" || e.Text != "\r" {
		t.Fatalf("Enter keyDown: %+v", e)
	}
}
