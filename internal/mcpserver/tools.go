package mcpserver

import (
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	contract "github.com/browser-bridge/browser-bridge/internal/tool"
)

// ToolName is the name of the single tool (SPEC §2).
const ToolName = "use_user_browser"

// Tool modes: one tool with an action parameter, or one tool per action.
const (
	ModeSingle = "single"
	ModeSplit  = "split"
)

// toolDef is one tool definition and the action it is fixed to ("" for
// the single tool).
type toolDef struct {
	def    *mcp.Tool
	action string
}

// tools returns the tool list of a mode.
func tools(mode string) []toolDef {
	if mode == ModeSplit {
		var out []toolDef
		for _, a := range orderedActions() {
			out = append(out, toolDef{&mcp.Tool{Name: SplitToolName(a), Description: splitDescription(a), InputSchema: inputSchema(a)}, a})
		}
		return out
	}
	return []toolDef{{def: &mcp.Tool{Name: ToolName, Description: singleDescription(), InputSchema: inputSchema("")}}}
}

// SplitToolName is the name of an action's own tool in split mode.
func SplitToolName(action string) string { return "browser_" + action }

// orderedActions is contract.Names() in actionOrder, then any action this
// package does not know yet, sorted.
func orderedActions() []string {
	names := contract.Names()
	var out []string
	for _, a := range actionOrder {
		if slices.Contains(names, a) {
			out = append(out, a)
		}
	}
	for _, a := range names {
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

func singleDescription() string {
	var b strings.Builder
	b.WriteString(toolIntro)
	for _, a := range orderedActions() {
		b.WriteString("\n- " + a + ": " + summary(a))
	}
	b.WriteString("\n" + toolHow + pageHow)
	return b.String()
}

func splitDescription(action string) string {
	s := summary(action)
	d := strings.ToUpper(s[:1]) + s[1:]
	if spec, ok := contract.Lookup(action); ok && spec.Locator {
		d += splitHow
	}
	if slices.Contains(pageActions, action) {
		d += pageHow
	}
	return d
}

func summary(action string) string {
	if spec, ok := contract.Lookup(action); ok {
		return spec.Summary
	}
	return "the " + action + " action."
}
