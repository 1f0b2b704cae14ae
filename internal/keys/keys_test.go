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

// The chords that paste the clipboard are refused, however they are
// spelled; their neighbours are not.
func TestParseRefusesPaste(t *testing.T) {
	for _, in := range []string{"Control+V", "ctrl+v", "Meta+v", "Cmd+V", "Command+V", "ControlRight+V", "Control+Shift+V", "Meta+Alt+Shift+V", "Shift+Insert", "ShiftRight+Insert", "Control+Shift+Insert", "Tab Control+V"} {
		_, err := Parse(in)
		if err == nil || !strings.Contains(err.Error(), "type action") {
			t.Errorf("%q: %v, want a refusal that says to type the value", in, err)
		}
	}
	for _, in := range []string{"v", "V", "Shift+V", "Alt+V", "Control+C", "Control+X", "Insert", "Control+Insert", "Control Shift V"} {
		if _, err := Parse(in); err != nil {
			t.Errorf("%q: %v", in, err)
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

// Modifier keys say which side they are on, as a real keyboard's do: a
// page that reads event.location or event.code (a game, a shortcut
// recorder) sees ShiftLeft with location LEFT; other keys have none.
func TestModifierLocation(t *testing.T) {
	tests := []struct {
		in   string
		want string // type:code:location of every event
	}{
		{"Shift+Tab", "rawKeyDown:ShiftLeft:1 rawKeyDown:Tab:0 keyUp:Tab:0 keyUp:ShiftLeft:1"},
		{"ShiftRight+a", "rawKeyDown:ShiftRight:2 keyDown:KeyA:0 keyUp:KeyA:0 keyUp:ShiftRight:2"},
		{"Control", "rawKeyDown:ControlLeft:1 keyUp:ControlLeft:1"},
		{"ControlRight+Alt+x", "rawKeyDown:ControlRight:2 rawKeyDown:AltLeft:1 rawKeyDown:KeyX:0 keyUp:KeyX:0 keyUp:AltLeft:1 keyUp:ControlRight:2"},
		{"MetaRight", "rawKeyDown:MetaRight:2 keyUp:MetaRight:2"},
	}
	for _, tt := range tests {
		cs, err := Parse(tt.in)
		if err != nil {
			t.Fatalf("%q: %v", tt.in, err)
		}
		var got []string
		for _, e := range cs[0].Events() {
			got = append(got, e.Type+":"+e.Code+":"+strconv.Itoa(e.Location))
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%q: %s, want %s", tt.in, strings.Join(got, " "), tt.want)
		}
	}
	// Modifiers held stay held across sides: ShiftRight+Control+Z is a
	// capital Z with both bits set until the keys go up.
	cs, _ := Parse("ShiftRight+Control+Z")
	ev := cs[0].Events()
	if ev[2].Modifiers != modShift|modCtrl || ev[len(ev)-1].Modifiers != 0 {
		t.Errorf("modifier bits: %+v", ev)
	}
}

// A long bad name is echoed cut, not in full: a 3000-character key came
// back whole in the error (QA on main).
func TestBadKeyIsEchoedCut(t *testing.T) {
	long := strings.Repeat("x", 3000)
	for _, in := range []string{long, long + "+A", "Control+" + long} {
		_, err := Parse(in)
		if err == nil {
			t.Fatalf("%d characters accepted", len(in))
		}
		if msg := err.Error(); len(msg) > 400 || !strings.Contains(msg, "xxx…") {
			t.Errorf("error of %d characters (%.80s…), want the name cut with …", len(msg), msg)
		}
	}
}

// FuzzParse: any keys string either parses or is refused with an error;
// it never panics, and no chord it lets through pastes.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"Enter", "Control+A", "Shift+Tab Enter", "Control++", "+", "Control+V", "Shift+Insert", "Meta+Alt+Shift+v", "ｖ", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := Parse(s)
		if err != nil {
			return
		}
		for _, c := range cs {
			if c.pastes() {
				t.Errorf("%q parsed into a chord that pastes: %+v", s, c)
			}
			c.Events()
		}
	})
}
