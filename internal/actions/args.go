package actions

import "github.com/browser-bridge/browser-bridge/internal/tool"

// The arguments of the page scripts (extension/page/*.js) and of the CDP
// methods the engine sends, one type each: their json names are what the
// scripts read. A field that a script tells apart from its absence (a
// value that may be "", a boolean it compares with ===) is a pointer or
// always sent; the rest are left out when zero, which the scripts read
// as absent.

// Rect is a box in CSS pixels.
type Rect = tool.Rect

// actArgs are the arguments of page/act.js's functions on a located
// element; Ref is the element's frame-local ref (act fills it).
type actArgs struct {
	Ref       string   `json:"ref"`
	Options   []string `json:"options,omitempty"` // select
	Checked   *bool    `json:"checked,omitempty"` // check: the wanted state
	To        string   `json:"to,omitempty"`      // scroll: "top" or "bottom"
	DeltaX    *float64 `json:"deltaX,omitempty"`  // scroll
	DeltaY    *float64 `json:"deltaY,omitempty"`  // scroll
	Value     *string  `json:"value,omitempty"`   // typeDom, setValue, paste
	Clear     bool     `json:"clear,omitempty"`   // typeDom
	SelectAll bool     `json:"selectAll,omitempty"`
	Watch     bool     `json:"watch,omitempty"` // watch the page's reaction
	End       bool     `json:"end,omitempty"`   // prepareTyping: caret at the end
	Check     bool     `json:"check,omitempty"` // prepareTyping: only a plain text field
	Token     string   `json:"token,omitempty"` // markUpload
}

// locateArgs are page/locate.js locate's: one locator, and how to answer.
type locateQuery struct {
	Selector    string `json:"selector"`
	Text        string `json:"text"`
	Role        string `json:"role"`
	Name        string `json:"name"`
	Label       string `json:"label"`
	Placeholder string `json:"placeholder"`
	Ref         string `json:"ref,omitempty"`
	Exact       bool   `json:"exact"`
	// Suggest: say what is close when nothing matches.
	Suggest bool `json:"suggest"`
	// Point: measure the point of the match it would pick.
	Point bool `json:"point"`
	// Prefer: rank text matches by what can be clicked.
	Prefer bool `json:"prefer"`
	// Mark: note the page under this token (pagechange.go).
	Mark string `json:"mark,omitempty"`
}

// typeTripArgs are page/act.js locateToType's (the one-trip type).
type typeTripArgs struct {
	Locate     locateQuery `json:"locate"`
	EveryFrame bool        `json:"everyFrame"`
	SelectAll  bool        `json:"selectAll"`
	Nth        *int        `json:"nth,omitempty"`
}

// xy is a point, in the coordinates the script takes.
type xy struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// refArgs name an element of the frame by its ref.
type refArgs struct {
	Ref string `json:"ref"`
}

// hitsArgs are page/locate.js hitsAt's: the <iframe> Ref and points in
// its frame's viewport.
type hitsArgs struct {
	Ref    string `json:"ref"`
	Points []xy   `json:"points"`
}

// tokenArgs are page/locate.js announce's and frameOffset's: the token a
// child frame announces, and (frameOffset) a point in the child.
type tokenArgs struct {
	Token string   `json:"token"`
	X     *float64 `json:"x,omitempty"`
	Y     *float64 `json:"y,omitempty"`
}

// recheckArgs are page/locate.js recheck's, for one level of an aim.
type recheckArgs struct {
	Ref     string  `json:"ref"`
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	NeedHit bool    `json:"needHit"`
	// Last is the element itself (not an <iframe> above it).
	Last        bool `json:"last,omitempty"`
	IgnoreMoved bool `json:"ignoreMoved,omitempty"`
	// Box, Since and Settled are the measure's, to tell the element held
	// still.
	Box     *Rect    `json:"box,omitempty"`
	Since   *float64 `json:"since,omitempty"`
	Settled bool     `json:"settled,omitempty"`
}

// irreversibleArgs are page/irreversible.js's: the element (Ref) or the
// point (X, Y) an action is about to press, and How ("click", "keys").
type irreversibleArgs struct {
	Ref string   `json:"ref,omitempty"`
	X   *float64 `json:"x,omitempty"`
	Y   *float64 `json:"y,omitempty"`
	How string   `json:"how"`
}

// reactionArgs are page/act.js reaction's: how long to wait for the page
// to react to the input and to settle, and the field to read then.
type reactionArgs struct {
	GraceMs int64  `json:"graceMs"`
	QuietMs int64  `json:"quietMs"`
	Frame   bool   `json:"frame"`
	FrameMs int64  `json:"frameMs"`
	Read    string `json:"read,omitempty"`
	// Done stops the watch.
	Done bool `json:"done,omitempty"`
}

// maxArgs bound what a listing script returns.
type maxArgs struct {
	Max int `json:"max"`
}

// noArgs is a script's or a CDP method's empty arguments ({}).
type noArgs struct{}

// CDP DOM methods' parameters (chromedevtools.github.io/devtools-protocol/tot/DOM).
type (
	nodeForLocation struct {
		X                         float64 `json:"x"`
		Y                         float64 `json:"y"`
		IncludeUserAgentShadowDOM bool    `json:"includeUserAgentShadowDOM"`
		IgnorePointerEventsNone   bool    `json:"ignorePointerEventsNone"`
	}
	frameOwner struct {
		FrameID string `json:"frameId"`
	}
	boxModelOf struct {
		BackendNodeID int `json:"backendNodeId"`
	}
)
