// Package keys is the keyboard the bridge types with: key names and chords
// ("Enter", "Control+A", "Shift+Tab Enter") read into the key events of
// CDP's Input.dispatchKeyEvent, on a US layout (the layout CDP's key codes
// describe).
package keys

import (
	"fmt"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// key is one key as CDP's Input.dispatchKeyEvent describes it.
type key struct {
	Key      string // DOM key value
	Code     string // DOM code
	KeyCode  int    // windowsVirtualKeyCode
	Text     string // text the key types ("" for none)
	Location int    // KeyboardEvent.location: 0 standard, 1 left, 2 right
}

// Key locations of KeyboardEvent.location (and CDP's location).
const (
	locationLeft  = 1
	locationRight = 2
)

// Modifier bits of Input.dispatchKeyEvent.
const (
	modAlt   = 1
	modCtrl  = 2
	modMeta  = 4
	modShift = 8
)

// modifiers are the modifier keys by name. The plain names are the left
// keys, as a person mostly presses them; a page that tells them apart
// (event.location, event.code) sees ShiftLeft with location LEFT, as
// from a real keyboard. The ...Right names press the right-hand keys.
var modifiers = map[string]struct {
	bit int
	key key
}{
	"alt":          {modAlt, key{"Alt", "AltLeft", 18, "", locationLeft}},
	"option":       {modAlt, key{"Alt", "AltLeft", 18, "", locationLeft}},
	"altleft":      {modAlt, key{"Alt", "AltLeft", 18, "", locationLeft}},
	"altright":     {modAlt, key{"Alt", "AltRight", 18, "", locationRight}},
	"control":      {modCtrl, key{"Control", "ControlLeft", 17, "", locationLeft}},
	"ctrl":         {modCtrl, key{"Control", "ControlLeft", 17, "", locationLeft}},
	"controlleft":  {modCtrl, key{"Control", "ControlLeft", 17, "", locationLeft}},
	"controlright": {modCtrl, key{"Control", "ControlRight", 17, "", locationRight}},
	"meta":         {modMeta, key{"Meta", "MetaLeft", 91, "", locationLeft}},
	"cmd":          {modMeta, key{"Meta", "MetaLeft", 91, "", locationLeft}},
	"command":      {modMeta, key{"Meta", "MetaLeft", 91, "", locationLeft}},
	"metaleft":     {modMeta, key{"Meta", "MetaLeft", 91, "", locationLeft}},
	"metaright":    {modMeta, key{"Meta", "MetaRight", 92, "", locationRight}},
	"shift":        {modShift, key{"Shift", "ShiftLeft", 16, "", locationLeft}},
	"shiftleft":    {modShift, key{"Shift", "ShiftLeft", 16, "", locationLeft}},
	"shiftright":   {modShift, key{"Shift", "ShiftRight", 16, "", locationRight}},
}

// modifierBit is the modifier bit of a modifier key.
func modifierBit(k key) int {
	return modifiers[strings.ToLower(k.Code)].bit
}

var namedKeys = map[string]key{
	"enter":      {"Enter", "Enter", 13, "\r", 0},
	"tab":        {"Tab", "Tab", 9, "", 0},
	"escape":     {"Escape", "Escape", 27, "", 0},
	"esc":        {"Escape", "Escape", 27, "", 0},
	"backspace":  {"Backspace", "Backspace", 8, "", 0},
	"delete":     {"Delete", "Delete", 46, "", 0},
	"space":      {" ", "Space", 32, " ", 0},
	"arrowup":    {"ArrowUp", "ArrowUp", 38, "", 0},
	"arrowdown":  {"ArrowDown", "ArrowDown", 40, "", 0},
	"arrowleft":  {"ArrowLeft", "ArrowLeft", 37, "", 0},
	"arrowright": {"ArrowRight", "ArrowRight", 39, "", 0},
	"up":         {"ArrowUp", "ArrowUp", 38, "", 0},
	"down":       {"ArrowDown", "ArrowDown", 40, "", 0},
	"left":       {"ArrowLeft", "ArrowLeft", 37, "", 0},
	"right":      {"ArrowRight", "ArrowRight", 39, "", 0},
	"home":       {"Home", "Home", 36, "", 0},
	"end":        {"End", "End", 35, "", 0},
	"pageup":     {"PageUp", "PageUp", 33, "", 0},
	"pagedown":   {"PageDown", "PageDown", 34, "", 0},
	"insert":     {"Insert", "Insert", 45, "", 0},
}

// punctuation maps printable non-alphanumeric keys of a US layout to
// their DOM code and key code.
var punctuation = map[rune]struct {
	code    string
	keyCode int
}{
	'-': {"Minus", 189}, '=': {"Equal", 187}, '[': {"BracketLeft", 219}, ']': {"BracketRight", 221},
	'\\': {"Backslash", 220}, ';': {"Semicolon", 186}, '\'': {"Quote", 222}, ',': {"Comma", 188},
	'.': {"Period", 190}, '/': {"Slash", 191}, '`': {"Backquote", 192},
}

// usShift is what Shift makes of the digit and punctuation keys on a US
// layout, the layout CDP key codes describe: Shift+1 types "!".
var usShift = map[string]string{
	"1": "!", "2": "@", "3": "#", "4": "$", "5": "%", "6": "^", "7": "&", "8": "*", "9": "(", "0": ")",
	"-": "_", "=": "+", "[": "{", "]": "}", "\\": "|", ";": ":", "'": "\"", ",": "<", ".": ">", "/": "?", "`": "~",
}

// shifted is k as typed with Shift held, when shift is.
func shifted(k key, shift bool) key {
	if s, ok := usShift[k.Key]; ok && shift {
		k.Key, k.Text = s, s
	}
	return k
}

func init() {
	for i := 1; i <= 12; i++ {
		n := fmt.Sprintf("F%d", i)
		namedKeys[strings.ToLower(n)] = key{n, n, 111 + i, "", 0}
	}
}

// Chord is one chord: modifiers held while a key is pressed.
type Chord struct {
	mods []key
	bits int
	key  key
}

// Parse reads "Enter", "Control+A", "Shift+Tab Enter" (chords separated by
// spaces) into chords. A bad name is invalid_argument saying what names
// work.
func Parse(s string) ([]Chord, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return nil, invalid("keys is required, e.g. \"Enter\", \"Tab\", \"Control+A\", \"Shift+Tab\"")
	}
	var out []Chord
	for _, f := range fields {
		parts := strings.Split(f, "+")
		// "+" is the plus key; "Control++" is Control and the plus key.
		switch {
		case f == "+":
			parts = []string{"+"}
		case strings.HasSuffix(f, "++"):
			parts = append(strings.Split(strings.TrimSuffix(f, "++"), "+"), "+")
		}
		var c Chord
		for i, p := range parts {
			if i < len(parts)-1 {
				m, ok := modifiers[strings.ToLower(p)]
				if !ok {
					return nil, invalid("%q in keys %q is not a modifier (Control, Shift, Alt, Meta)", tool.Echo(p), tool.Echo(f))
				}
				c.mods = append(c.mods, m.key)
				c.bits |= m.bit
				continue
			}
			k, err := keyOf(p, c.bits)
			if err != nil {
				return nil, err
			}
			if m, ok := modifiers[strings.ToLower(p)]; ok {
				c.bits |= m.bit // a modifier on its own is held while it is down
			}
			c.key = k
		}
		if c.pastes() {
			return nil, invalid("keys %q would paste what the user copied, which the bridge does not read; to enter text, use the type action with the value (inputMode \"paste\" inserts it as a paste does)", tool.Echo(f))
		}
		out = append(out, c)
	}
	return out, nil
}

// pastes says whether Chrome pastes the clipboard on the chord:
// Control+V and Meta+V (with Shift or Alt too: as plain text) and
// Shift+Insert, on every platform's key bindings. The clipboard holds
// what the user copied — a password, a private note — so the agent
// never presses these: a page could read it back.
func (cs Chord) pastes() bool {
	switch cs.key.Code {
	case "KeyV":
		return cs.bits&(modCtrl|modMeta) != 0
	case "Insert":
		return cs.bits&modShift != 0
	}
	return false
}

func keyOf(name string, bits int) (key, error) {
	if k, ok := namedKeys[strings.ToLower(name)]; ok {
		return k, nil
	}
	if m, ok := modifiers[strings.ToLower(name)]; ok {
		return m.key, nil // a modifier pressed on its own
	}
	r := []rune(name)
	if len(r) != 1 {
		return key{}, invalid("unknown key %q: use names like Enter, Tab, Escape, ArrowDown, Backspace, F5, a single character, or chords like Control+A; to enter text use the type action", tool.Echo(name))
	}
	c := r[0]
	shift := bits&modShift != 0
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		lower := c | 0x20
		k := key{Key: string(lower), Code: "Key" + strings.ToUpper(string(lower)), KeyCode: int(lower - 'a' + 'A'), Text: string(lower)}
		// "A" alone types a capital; in a chord ("Control+A") the letter
		// names the key and only Shift makes it a capital.
		if shift || (c >= 'A' && c <= 'Z' && bits == 0) {
			k.Key, k.Text = strings.ToUpper(k.Key), strings.ToUpper(k.Text)
		}
		return k, nil
	case c >= '0' && c <= '9':
		return shifted(key{Key: string(c), Code: "Digit" + string(c), KeyCode: int(c), Text: string(c)}, shift), nil
	}
	if p, ok := punctuation[c]; ok {
		return shifted(key{Key: string(c), Code: p.code, KeyCode: p.keyCode, Text: string(c)}, shift), nil
	}
	// Any other character: no physical key, but it still types.
	return key{Key: string(c), Text: string(c)}, nil
}

// Event is the params of one Input.dispatchKeyEvent.
type Event struct {
	Type                  string `json:"type"`
	Key                   string `json:"key"`
	Code                  string `json:"code"`
	WindowsVirtualKeyCode int    `json:"windowsVirtualKeyCode"`
	Modifiers             int    `json:"modifiers"`
	Text                  string `json:"text,omitempty"`
	UnmodifiedText        string `json:"unmodifiedText,omitempty"`
	// Location is KeyboardEvent.location: 1 for the left and 2 for the
	// right modifier keys, left out (0, standard) for the others.
	Location int `json:"location,omitempty"`
}

// Events turns a chord into key events: modifiers down, the key down (with
// its text unless Control, Alt or Meta is held, which makes it a
// shortcut), the key up, modifiers up.
func (cs Chord) Events() []Event {
	var cmds []Event
	ev := func(typ string, k key, mods int, text bool) Event {
		e := Event{Type: typ, Key: k.Key, Code: k.Code, WindowsVirtualKeyCode: k.KeyCode, Modifiers: mods, Location: k.Location}
		if text && k.Text != "" {
			e.Text, e.UnmodifiedText = k.Text, k.Text
		}
		return e
	}
	held := 0
	for _, m := range cs.mods {
		held |= modifierBit(m)
		cmds = append(cmds, ev("rawKeyDown", m, held, false))
	}
	typesText := cs.key.Text != "" && cs.bits&(modCtrl|modAlt|modMeta) == 0
	if typesText {
		cmds = append(cmds, ev("keyDown", cs.key, cs.bits, true))
	} else {
		cmds = append(cmds, ev("rawKeyDown", cs.key, cs.bits, false))
	}
	cmds = append(cmds, ev("keyUp", cs.key, cs.bits, false))
	for i := len(cs.mods) - 1; i >= 0; i-- {
		held &^= modifierBit(cs.mods[i])
		cmds = append(cmds, ev("keyUp", cs.mods[i], held, false))
	}
	return cmds
}

func invalid(format string, args ...any) error {
	return protocol.Errorf(protocol.CodeInvalidArgument, format, args...)
}
