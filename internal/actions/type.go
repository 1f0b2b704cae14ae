package actions

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func init() { register("type", typeText) }

// typeText types value into the target. A text field, textarea or
// contenteditable is focused (unless it has the focus already), its
// content selected with clear, and the text inserted through CDP
// Input.insertText — real editing, so controlled inputs and rich editors
// see ordinary input events. A code editor (Monaco, CodeMirror, an
// EditContext or hidden-textarea editor) is reached through its own input
// element and gets the text as a paste (its typing path would indent and
// close brackets); date, time, month, week, datetime-local, color and
// range inputs get their value set as their picker sets it. inputMode
// "paste" pastes into any field; "cdp" types even into an editor; "dom"
// sets the value and fires input/change.
func typeText(r *run) (*tool.TypeResult, error) {
	loc, err := r.needLocator()
	if err != nil {
		return nil, err
	}
	if r.in.Value == "" && !r.in.Clear {
		return nil, invalid("type needs value (the text to type); to empty a field pass clear: true with an empty value")
	}
	mode, err := r.typing().typeMode(loc)
	if err != nil {
		return nil, err
	}
	if (mode == "" || mode == "cdp") && r.in.Value != "" && !loc.IsPoint() {
		if res, ok, err := r.typing().typeInOneTrip(loc); ok || err != nil {
			return res, err
		}
	}
	if mode == "dom" || loc.IsPoint() {
		t, err := r.guards().pageTarget()
		if err != nil {
			return nil, err
		}
		ty, err := r.typing().typeInto(t, loc, mode)
		if err != nil {
			return nil, err
		}
		return r.typing().observeTyped(t, ty, loc)
	}
	// The field is located and the debugger readied beside the look at
	// the tab (typingTarget).
	l := r.locator()
	t, err := r.guards().pageTargetLooking(func(tabID int) error {
		return both(func() error { return r.answerer().answerOpenDialogs(tabID) }, func() error {
			return l.locate(browser.TabInfo{TabID: tabID}, loc)
		})
	})
	if err != nil {
		return nil, err
	}
	if !t.Active {
		if err := r.b.TabActivate(r.ctx, protocol.TabActivateParams{TabID: t.TabID}); err != nil {
			return nil, err
		}
	}
	ty, err := r.typing().typeIntoElement(t, l.el, loc, mode)
	if err != nil {
		return nil, err
	}
	return r.typing().observeTyped(t, ty, loc)
}

// typeMode is type's inputMode: "" (cdp, pasting into code editors),
// "cdp", "paste" or "dom" (which needs an element, not a point).
func (r typing) typeMode(loc tool.Locator) (string, error) {
	switch m := r.inputMode; m {
	case "", "cdp", "paste":
		return m, nil
	case "dom":
		if loc.IsPoint() {
			return "", invalid("inputMode \"dom\" needs an element locator, not a point")
		}
		return m, nil
	}
	return "", invalid("inputMode of type must be \"cdp\" (default), \"paste\" or \"dom\"")
}

// typed is what typeInto did: the element typed into (the field a
// locator named may stand for another: a code editor's input), how, and
// the page's reaction.
type typed struct {
	el       Element
	target   Element // the element whose value is read back; no localRef for a point
	how      string
	editor   string
	reaction Reaction
	// read is the target's value (page/act.js valueOf) as the reaction's
	// last look read it; nil: not read yet.
	read json.RawMessage
	// settle, when set, is the wait for the reaction still to come (and
	// the read-back with it): observeTyped awaits it beside its look at
	// the tab.
	settle *reactionWait
	// after is the tab as the input's batch saw it right after the input
	// (nil: observeTyped reads it).
	after    *browser.TabInfo
	warnings []string
}

// preparedTyping is page/act.js prepareTyping's answer.
type preparedTyping struct {
	Kind     string `json:"kind"` // text, editor, value, none
	Editor   string `json:"editor"`
	Mac      bool   `json:"mac"`
	Ref      string `json:"ref"`
	ClickRef string `json:"clickRef"`
	HadFocus bool   `json:"hadFocus"`
	Focused  bool   `json:"focused"`
	Empty    bool   `json:"empty"`
	Tag      string `json:"tag"`
	Type     string `json:"type"`
	Disabled bool   `json:"disabled"`
}

// typeInto locates the field and types the call's value into it (typeText
// takes the way of pageTargetLooking for a located field in cdp or paste
// mode; this is the way of the DOM mode and of a point).
func (r typing) typeInto(t browser.TabInfo, loc tool.Locator, mode string) (typed, error) {
	if mode == "dom" {
		l := r.locator()
		if err := l.locate(t, loc); err != nil {
			return typed{}, err
		}
		var out struct {
			Value string `json:"value"`
		}
		settle := r.settling().watchReaction(t.TabID, l.el.FrameID)
		if err := l.act("typeDom", actArgs{Value: &r.value, Clear: r.clear}, &out); err != nil {
			return typed{}, err
		}
		return typed{el: l.el, target: l.el, how: "dom", reaction: settle.await()}, nil
	}
	el, err := r.typingTarget(t, loc)
	if err != nil {
		return typed{}, err
	}
	if loc.IsPoint() {
		return r.typeAtPoint(t.TabID, el, mode, matchWarnings(el, loc))
	}
	return r.typeIntoElement(t, el, loc, mode)
}

// typeIntoElement types into el, the located field (not a point), once
// the debugger is ready.
func (r typing) typeIntoElement(t browser.TabInfo, el Element, loc tool.Locator, mode string) (typed, error) {
	warnings := matchWarnings(el, loc)
	var p preparedTyping
	if r.value != "" && mode != "paste" {
		ty, inserted, err := r.typeAtOnce(t.TabID, el, &p)
		if err != nil || inserted {
			ty.warnings = warnings
			return ty, err
		}
	}
	// The page's reaction is watched from this call on, counted from the
	// input's own events: no round trip of its own before the input.
	if p.Kind == "" {
		if err := r.actor().act(t.TabID, el, "prepareTyping", actArgs{SelectAll: r.clear, Watch: true}, &p); err != nil {
			return typed{}, err
		}
	}
	if p.Kind == "none" {
		what := p.Tag
		if p.Type != "" {
			what += " type=" + p.Type
		}
		return typed{}, invalid("%s %q does not take text (not a text input, textarea, editable element or code editor, or it is disabled/read-only)", what, firstNonEmpty(el.Name, el.Text))
	}
	target := el.withLocalRef(p.Ref)
	ty := typed{el: el, target: target, editor: p.Editor, warnings: warnings}
	if p.Kind == "value" {
		return r.setInputValue(t.TabID, ty)
	}
	if err := r.focusForTyping(t.TabID, &ty, p); err != nil {
		return typed{}, err
	}
	return r.insert(t.TabID, ty, p, mode)
}

// typingRef, as the ref a reaction look reads, is the field that
// prepareTyping readied in the same frame (page/act.js).
const typingRef = "@typing"

// typeAtOnce readies the field, types the value and takes the first look
// at the page's reaction in one round trip: prepareTyping runs as the
// batch's check, which passes for a plain text field that has the focus
// once readied, and only then is the text inserted; the reaction script
// runs after it (cdpChecked's look after). When the check did not pass,
// nothing was inserted and p holds the field's answer (kind "" when
// there is none: a dialog held the page), for typeIntoElement to go on
// with as when prepareTyping ran alone.
func (r typing) typeAtOnce(tabID int, el Element, p *preparedTyping) (typed, bool, error) {
	fid := el.FrameID
	check := &protocol.BatchCheck{Files: actScript.files, Fn: "prepareTyping", Frames: []protocol.BatchCheckFrame{{FrameID: fid,
		Args: actArgs{Ref: el.localRef, SelectAll: r.clear, Watch: true, Check: true}}}}
	w := r.settling().reactionToInput(tabID, fid, typingRef)
	insert := cdpCmd("Input.insertText", insertText{Text: r.value})
	c, err := r.actor().cdpChecked(tabID, check, &lookAfter{script: reactionScript, frameID: fid, args: w.args(w.watched)}, []protocol.CDPCommand{insert})
	if err != nil {
		return typed{}, false, err
	}
	if len(c.answers) > 0 && c.answers[0].Error == "" {
		if err := json.Unmarshal(c.answers[0].Value, p); err != nil {
			*p = preparedTyping{}
		}
	}
	if !c.sent {
		if len(c.answers) == 0 {
			*p = preparedTyping{} // a dialog held the page before the check answered
		}
		return typed{}, false, nil
	}
	return r.typedAtOnce(el, *p, c, w), true, nil
}

// typedAtOnce is what a batch that readied el, typed and looked in one
// round trip did (typeAtOnce, typeInOneTrip): p is the readying's answer,
// c the batch, w the reaction wait the look began.
func (r typing) typedAtOnce(el Element, p preparedTyping, c checkedBatch, w reactionWait) typed {
	target := el.withLocalRef(p.Ref)
	// The look after the input read the readied field; later looks read
	// it by its own ref.
	w.ref = target.localRef
	w.first, w.firstNet = c.seen.look, c.seen.net
	return typed{el: el, target: target, editor: p.Editor, how: "typed", after: c.seen.tab, settle: &w}
}

// typeInOneTrip types into a plain text field of one of the bridge's
// tabs in a single round trip to the extension, where typeText's way
// takes two (the field located beside the look at the tab, then readied
// and typed into). It is the chain of steps with two of them varied: the
// target and guards as the last action saw the tab (guards.seenTarget),
// and locate and act fused into one cdp.batch (locateAndType); the
// observe step is type's own (observeTyped).
//
// ok false: the quick way did not apply (a tab never seen, or showing
// another page now; a locator that could mean a field in a child frame,
// or a field that is not a plain text field: see locateToType), nothing
// was typed, and typeText goes its usual way.
func (r typing) typeInOneTrip(loc tool.Locator) (res *tool.TypeResult, ok bool, err error) {
	query, where, err := r.locator().locateArgs(loc, false)
	if err != nil || (!where.all && (where.frameID == nil || *where.frameID != 0)) {
		return nil, false, nil
	}
	seen, ok, err := r.guards().seenTarget()
	if !ok || err != nil {
		return nil, false, err
	}
	before, ty, ok, err := r.locateAndType(seen, loc, query, where)
	if !ok || err != nil {
		return nil, false, err
	}
	res, err = r.observeTyped(before, ty, loc)
	return res, true, err
}

// locateAndType is the locate and act steps of typeInOneTrip in one
// cdp.batch on tab seen: its check (page/act.js locateToType) locates the
// field of query (run in where) and readies it, then Input.insertText,
// then the first look at the page's reaction — with the debugger attached
// meanwhile, and the tab made active. The batch's ExpectURL has the
// extension check, before the check runs, that the tab still shows the
// URL it was judged by; the extension's own guards check the site rules
// and a hand-off on the tab as it is, as for every batch. It returns the
// tab as the batch found it and what was typed; ok false: nothing was
// typed (the tab showed another page, or locateToType found no plain text
// field).
func (r typing) locateAndType(seen browser.TabInfo, loc tool.Locator, query locateQuery, where frames) (before browser.TabInfo, ty typed, ok bool, err error) {
	// No candidates for a locator that matches nothing: the usual way
	// looks again, and says what is close, when it gives up.
	query.Suggest = false
	a := typeTripArgs{Locate: query, EveryFrame: where.all, SelectAll: r.clear, Nth: loc.Nth}
	check := &protocol.BatchCheck{Files: actScript.files, Fn: "locateToType", Frames: []protocol.BatchCheckFrame{{FrameID: 0, Args: a}}}
	w := r.settling().reactionToInput(seen.TabID, 0, typingRef)
	insert := cdpCmd("Input.insertText", insertText{Text: r.value})
	c, err := r.actor().cdpCheckedWith(protocol.CDPBatchParams{TabID: seen.TabID, Commands: []protocol.CDPCommand{insert}, Check: check, ExpectURL: seen.URL, Activate: true},
		&lookAfter{script: reactionScript, frameID: 0, args: w.args(w.watched)})
	if err != nil {
		return before, ty, false, err
	}
	if c.stale && c.seen.tab != nil {
		r.observer().saw(*c.seen.tab)
	}
	if !c.sent || c.before == nil || len(c.answers) == 0 {
		return before, ty, false, nil
	}
	var got struct {
		Found    locateResult   `json:"found"`
		Index    int            `json:"index"`
		Prepared preparedTyping `json:"prepared"`
	}
	if err := json.Unmarshal(c.answers[0].Value, &got); err != nil || got.Index < 0 || got.Index >= len(got.Found.Matches) {
		// The text went in, but the answer cannot say where: the
		// extension and the daemon disagree on locateToType.
		return before, ty, false, protocol.Errorf(protocol.CodeInternal,
			"the text was typed, but the extension's answer does not name the field (%.200s): check the page with extract before typing again, and if this repeats, write the extension again (browser-bridge install) and reload it in chrome://extensions", c.answers[0].Value)
	}
	el := elementOf(got.Found.Matches[got.Index], 0)
	el.Matches = max(got.Found.Count, len(got.Found.Matches))
	ty = r.typedAtOnce(el, got.Prepared, c, w)
	ty.warnings = matchWarnings(el, loc)
	return *c.before, ty, true, nil
}

// withLocalRef is el with the frame-local ref of another element of its
// frame (the element a locator's match stands for).
func (el Element) withLocalRef(ref string) Element {
	if ref == "" || ref == el.localRef {
		return el
	}
	el.localRef = ref
	el.Ref = tool.FrameRef(el.FrameID, ref)
	return el
}

// setInputValue sets a date, time, month, week, datetime-local, color or
// range input to the call's value, watching the page's reaction.
func (r typing) setInputValue(tabID int, ty typed) (typed, error) {
	var out struct {
		Invalid string `json:"invalid"`
	}
	if err := r.actor().act(tabID, ty.target, "setValue", actArgs{Value: &r.value, Watch: true}, &out); err != nil {
		return typed{}, err
	}
	ty.how = "set"
	ty.reaction = r.settling().watchedReaction(tabID, ty.target.FrameID).await()
	if out.Invalid != "" {
		ty.warnings = append(ty.warnings, "the field reports the value invalid: "+out.Invalid)
	}
	return ty, nil
}

// focusForTyping gives the target the focus unless it has it already (an
// element with the focus is not clicked: a click would move its caret
// and drop a pending format, like the bold Control+B set in a rich-text
// editor). prepareTyping focused it through the DOM; where that did not
// take — a field in a child frame whose frame the page does not focus,
// a focus handler that moved it — a real click does. An editor's input
// gets the click on the editor's text. Then, for a code editor, the
// editor's own keys select its whole content (clear) or put the caret at
// its end.
func (r typing) focusForTyping(tabID int, ty *typed, p preparedTyping) error {
	if !p.HadFocus && !p.Focused {
		at := ty.target
		if p.ClickRef != "" {
			at = ty.target.withLocalRef(p.ClickRef)
		}
		pt, err := r.locator().pointOf(tabID, at)
		if err != nil {
			return err
		}
		clicked, err := r.actor().mouseClick(tabID, pt, "left", 1)
		if err != nil {
			return err
		}
		// pt is the target measured, and the target is ty.el in its
		// frame's words: clicked's waits are ty.el's and those since.
		ty.el.waited = clicked.waited
		if p.Kind == "text" {
			// The click put the caret at its point: select all again
			// (clear), or put the caret at the end.
			var again preparedTyping
			if err := r.actor().act(tabID, ty.target, "prepareTyping", actArgs{SelectAll: r.clear, End: true, Watch: true}, &again); err != nil {
				return err
			}
		}
	}
	if p.Kind != "editor" {
		return nil
	}
	mod := "Control"
	if p.Mac {
		mod = "Meta"
	}
	switch {
	case r.clear:
		return r.actor().pressKeys(tabID, mod+"+A")
	case !p.HadFocus:
		// Typing goes after what the editor holds, as in a text field.
		if p.Mac {
			return r.actor().pressKeys(tabID, "Meta+ArrowDown")
		}
		return r.actor().pressKeys(tabID, "Control+End")
	}
	return nil
}

// insert puts the call's value where the focus now is: pasted (mode
// paste, or a code editor in the default mode), else typed. A paste the
// page does not take (a plain field has no paste handler, and a synthetic
// paste inserts nothing by itself) is typed instead, as the browser would
// insert it. With clear and no value, the selected content is deleted.
func (r typing) insert(tabID int, ty typed, p preparedTyping, mode string) (typed, error) {
	if r.value == "" {
		ty.how = "typed"
		if r.clear && !p.Empty {
			w := r.settling().reactionToInput(tabID, ty.target.FrameID, ty.target.localRef)
			if err := r.actor().pressKeys(tabID, "Delete"); err != nil {
				return typed{}, err
			}
			ty.settle = &w
		}
		return ty, nil
	}
	if mode == "paste" || (mode == "" && p.Kind == "editor") {
		var out struct {
			Taken bool `json:"taken"`
		}
		if err := r.actor().act(tabID, ty.target, "paste", actArgs{Value: &r.value, Watch: true}, &out); err != nil {
			return typed{}, err
		}
		if out.Taken {
			ty.how = "pasted"
			ty.reaction = r.settling().watchedReaction(tabID, ty.target.FrameID).await()
			return ty, nil
		}
		if p.Kind == "editor" {
			ty.warnings = append(ty.warnings, "the editor did not take the text as a paste, so it was typed; an editor may indent typed text or close brackets — check the value")
		}
	}
	ty.how = "typed"
	insert := cdpCmd("Input.insertText", insertText{Text: r.value})
	if ty.target.localRef == "" {
		// A point (nothing readied) is watched in a call of its own.
		watch := r.settling().watchReaction(tabID, ty.target.FrameID)
		if err := r.actor().cdpBatch(tabID, insert); err != nil {
			return typed{}, err
		}
		ty.reaction = watch.await()
		return ty, nil
	}
	// The watch prepareTyping began counts from this input's events, and
	// the first look at the page's reaction (with the field's value and
	// the tab's requests) comes back with the input itself. A text field
	// that did not react is judged at once; an editor (typed into with
	// inputMode cdp) after its next frame, where it draws.
	w := r.settling().reactionToInput(tabID, ty.target.FrameID, ty.target.localRef)
	w.frame = p.Kind == "editor"
	seen, err := r.actor().cdpBatchLook(tabID, ty.target.FrameID, reactionScript, w.args(w.watched), insert)
	if err != nil {
		return typed{}, err
	}
	ty.after = seen.tab
	w.first, w.firstNet = seen.look, seen.net
	ty.settle = &w
	return ty, nil
}

// typeAtPoint types at a point: a real click there, then (clear) the
// platform's select-all and, the value typed or pasted where the focus
// went.
func (r typing) typeAtPoint(tabID int, el Element, mode string, warnings []string) (typed, error) {
	el, err := r.actor().mouseClick(tabID, el, "left", 1)
	if err != nil {
		return typed{}, err
	}
	ty := typed{el: el, warnings: warnings}
	if r.clear {
		if err := r.actor().pressKeys(tabID, "Control+A"); err != nil {
			return typed{}, err
		}
		if r.value == "" {
			ty.how = "typed"
			return ty, r.actor().pressKeys(tabID, "Delete")
		}
	}
	// Nothing was located to tell an editor by: the point pastes only
	// when asked to.
	return r.insert(tabID, ty, preparedTyping{Kind: "text"}, mode)
}

// observeTyped is observe for type, with the field's value as it is now.
// The tab's state and, beside it, the page's reaction with the field's
// value (read in the reaction's last look, or on its own) are read at
// once; a value read from a page that navigated away is dropped.
func (r typing) observeTyped(t browser.TabInfo, ty typed, loc tool.Locator) (*tool.TypeResult, error) {
	var res *tool.ActResult
	var v struct {
		Value      *string `json:"value"`
		Hidden     bool    `json:"hidden"`
		Unreadable string  `json:"unreadable"`
	}
	var valueErr error
	el := ty.el
	err := both(func() (err error) {
		res, err = r.observer().observeTab(t, ty.after, &el, el.waited, ty.warnings...)
		return err
	}, func() error {
		if ty.settle != nil {
			ty.reaction, ty.read = ty.settle.awaitReading()
		}
		switch {
		case loc.IsPoint():
			valueErr = errNoValue
		case ty.read != nil:
			valueErr = json.Unmarshal(ty.read, &v) // read in the reaction's last look
		default:
			valueErr = r.actor().act(t.TabID, ty.target, "valueOf", actArgs{}, &v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if w := ty.reaction.Warning(); w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	// The page was compared beside the wait for its reaction, which saw
	// it change: the text may not have yet, but the page is not unchanged.
	if pc := res.PageChange; pc != nil && pc.ChangedBlocks == 0 && ty.reaction.Changed {
		pc.StillChanging = true
	}
	if loc.IsPoint() {
		res.Element = nil
	}
	out := &tool.TypeResult{ActResult: *res, Inserted: ty.how, Editor: ty.editor, SettledMs: ty.reaction.Ms()}
	if valueErr == nil && !res.Navigated {
		out.Value, out.ValueHidden, out.ValueUnreadable = v.Value, v.Hidden, v.Unreadable
		if ty.editor != "" && v.Value != nil && !holdsTyped(*v.Value, r.value, r.clear) {
			out.Warnings = append(out.Warnings, "the editor now holds other text than was typed (it may have indented it, closed brackets or completed words); check value")
		}
	}
	return out, nil
}

// holdsTyped says whether an editor's rendered text holds the text typed
// into it — all of it (whole, after clear) or somewhere. Editors draw a
// tab as spaces up to the next tab stop (Monaco's default every 4
// columns), and some end the text with a line break.
func holdsTyped(rendered, typed string, whole bool) bool {
	for _, tab := range []int{0, 4, 2, 8} {
		want := typed
		if tab > 0 {
			want = expandTabs(typed, tab)
		}
		if whole && strings.TrimSuffix(rendered, "\n") == strings.TrimSuffix(want, "\n") {
			return true
		}
		if !whole && strings.Contains(rendered, strings.TrimSuffix(want, "\n")) {
			return true
		}
	}
	return false
}

// expandTabs replaces each tab with spaces to the next multiple of size.
func expandTabs(s string, size int) string {
	var b strings.Builder
	col := 0
	for _, c := range s {
		switch c {
		case '\t':
			n := size - col%size
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case '\n':
			b.WriteRune(c)
			col = 0
		default:
			b.WriteRune(c)
			col++
		}
	}
	return b.String()
}

// typingTarget locates the element to type into. Only a point or an
// element in a child frame needs the scroll-and-measure step (it may get
// a real click); a top-frame element is focused through the DOM, which
// scrolls it into view by itself — one round trip less.
func (r typing) typingTarget(t browser.TabInfo, loc tool.Locator) (Element, error) {
	// Attaching the debugger and locating do not depend on each other here:
	// a top-frame field is focused through the DOM, where the debugging
	// bar's shift of coordinates does not matter, and a point is measured
	// after both.
	l := r.locator()
	err := both(func() error { return r.locator().prepareInput(t) }, func() error {
		return l.locate(t, loc)
	})
	return l.el, err
}

// matchWarnings says when the locator matched several fields.
func matchWarnings(el Element, loc tool.Locator) []string {
	if el.Matches > 1 && loc.Nth == nil {
		return []string{pluralMatches(el.Matches)}
	}
	return nil
}

// insertText is the params of CDP's Input.insertText.
type insertText struct {
	Text string `json:"text"`
}

// errNoValue marks a type into a point, whose field has no value to read.
var errNoValue = errors.New("no element to read a value from")
