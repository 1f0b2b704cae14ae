package cli

import (
	"context"
	"path/filepath"

	"github.com/browser-bridge/browser-bridge/extension"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// runWriteExtension writes the embedded extension to a folder (default:
// the state folder's extension/) for "Load unpacked" in chrome://extensions,
// and prints the folder and the extension ID.
func runWriteExtension(ctx context.Context, args []string) error {
	var dir string
	switch len(args) {
	case 0:
		layout, err := paths.Default()
		if err != nil {
			return err
		}
		dir = layout.Extension()
	case 1:
		dir = args[0]
	default:
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "write-extension takes at most one folder: browser-bridge write-extension [DIR]"), 2)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if err := extension.WriteTo(abs); err != nil {
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "%v", err), 1)
	}
	return printJSON(map[string]any{
		"folder":      abs,
		"extensionId": protocol.DevExtensionID,
		"next":        "open chrome://extensions, turn on Developer mode, choose Load unpacked and pick this folder",
	})
}
