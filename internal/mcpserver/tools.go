package mcpserver

import (
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	contract "github.com/browser-bridge/browser-bridge/internal/tool"
)

// ToolName is the name of the single tool (docs/design.md#actions).
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
		for _, a := range contract.Listed() {
			out = append(out, toolDef{&mcp.Tool{Name: SplitToolName(a), Description: splitDescription(a), InputSchema: inputSchema(a)}, a})
		}
		return out
	}
	return []toolDef{{def: &mcp.Tool{Name: ToolName, Description: singleDescription(), InputSchema: inputSchema("")}}}
}

// SplitToolName is the name of an action's own tool in split mode.
func SplitToolName(action string) string { return "browser_" + action }

func singleDescription() string {
	var b strings.Builder
	b.WriteString(toolIntro)
	for _, a := range contract.Listed() {
		b.WriteString("\n- " + a + ": " + summary(a))
	}
	b.WriteString("\n" + toolHow + pageHow)
	return b.String()
}

func splitDescription(action string) string {
	s := summary(action)
	d := strings.ToUpper(s[:1]) + s[1:]
	if spec, ok := contract.Lookup(action); ok {
		if spec.Locator {
			d += splitHow
		}
		if len(spec.PageParts()) > 0 {
			d += pageHow
		}
	}
	return d
}

func summary(action string) string {
	if spec, ok := contract.Lookup(action); ok {
		return spec.Summary
	}
	return "the " + action + " action."
}
