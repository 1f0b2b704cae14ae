package actions

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"regexp"
	"strconv"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func init() { register("pdf", pdf) }

// pdf prints the page to a PDF file (Page.printToPDF) written like a
// screenshot: mode 0600 in the bridge's screenshots folder, pruned with
// the screenshots. The result names the file, never its bytes.
func pdf(r *run) (*tool.PDFResult, error) {
	t, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	if err := r.camera().refuseFramed(t); err != nil { // camera.go
		return nil, err
	}
	if err := r.answerer().answerOpenDialogs(t.TabID); err != nil {
		return nil, err
	}
	unlock, err := holdCamera(r, t.TabID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// What a screenshot masks (passwords, card numbers a browser
	// autofilled) is masked in print as well.
	if _, err := r.runPage(t.TabID, frames{all: true}, maskScript("maskSensitive"), nil); err != nil {
		return nil, err
	}
	defer r.runPage(t.TabID, frames{all: true}, maskScript("unmaskSensitive"), nil)
	var out struct {
		Data string `json:"data"`
	}
	params := printParams{Landscape: r.in.Landscape, PrintBackground: r.in.PrintBackground}
	if err := r.b.CDP(r.ctx, protocol.CDPParams{TabID: t.TabID, Method: "Page.printToPDF", Params: params}, &out); err != nil {
		return nil, err
	}
	data, err := base64.StdEncoding.DecodeString(out.Data)
	if err != nil {
		return nil, fmt.Errorf("decoding the PDF: %w", err)
	}
	if !bytes.HasPrefix(data, []byte("%PDF-")) {
		return nil, fmt.Errorf("the browser returned something that is not a PDF (%d bytes)", len(data))
	}
	path, err := r.env.Screenshots.Write(data, ".pdf")
	if err != nil {
		return nil, err
	}
	return &tool.PDFResult{Page: pageOf(t), Path: path, Bytes: len(data), Pages: pdfPages(data)}, nil
}

// printParams is the params of CDP's Page.printToPDF that the action sets
// (Chrome's defaults for the rest: Letter paper, 1 cm margins).
type printParams struct {
	Landscape       bool `json:"landscape,omitempty"`
	PrintBackground bool `json:"printBackground,omitempty"`
}

var (
	// pageObject is a page object's type entry; /Pages (the page tree's
	// nodes) does not match.
	pageObject = regexp.MustCompile(`/Type\s*/Page(?:[^A-Za-z0-9]|$)`)
	// pageCount is the /Count of a page tree node.
	pageCount = regexp.MustCompile(`/Type\s*/Pages\b[^>]*?/Count\s+(\d+)|/Count\s+(\d+)[^>]*?/Type\s*/Pages\b`)
)

// pdfPages counts the pages of a PDF as Chrome writes it (Skia: page
// objects in plain dictionaries, no object streams): the page objects, or
// failing that the largest /Count of the page tree. 0: it could not tell.
func pdfPages(data []byte) int {
	if n := len(pageObject.FindAllIndex(data, -1)); n > 0 {
		return n
	}
	most := 0
	for _, m := range pageCount.FindAllSubmatch(data, -1) {
		s := m[1]
		if len(s) == 0 {
			s = m[2]
		}
		if n, err := strconv.Atoi(string(s)); err == nil && n > most {
			most = n
		}
	}
	return most
}
