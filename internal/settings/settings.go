// Package settings is the user's settings file, settings.json in the state
// folder: whether the bridge is enabled, and the search engine. A missing
// file means the defaults. It is read on use (a few hundred bytes), so a
// change takes effect at once, without restarting the daemon.
package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/browser-bridge/browser-bridge/internal/atomicfile"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/policy"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// Settings are the user's choices.
//
// A file that does not parse turns the bridge off (see Off) rather than
// dropping the user's site rules or pause on the floor.
type Settings struct {
	// Disabled turns the bridge off: every action fails with
	// bridge_disabled (`browser-bridge disable`; enable turns it back on).
	Disabled bool `json:"disabled,omitempty"`
	// SearchURL is the search engine, a URL with {query}.
	SearchURL string `json:"searchUrl,omitempty"`
	// Paused stops the agent for a while without turning the bridge
	// off: every action but status fails with paused_by_user
	// (`browser-bridge pause`, `resume`, or the extension page's switch).
	Paused bool `json:"paused,omitempty"`
	// Policy is the user's site rules (`browser-bridge policy`).
	Policy policy.Rules `json:"policy,omitzero"`
	// KeepSessionTabs keeps the tabs of an agent's session after it ends;
	// by default they are closed after SessionGraceSeconds (60).
	KeepSessionTabs     bool `json:"keepSessionTabs,omitempty"`
	SessionGraceSeconds int  `json:"sessionGraceSeconds,omitempty"`
	// AskBeforeIrreversible makes the bridge ask the user, over the page,
	// before a click or key press that would submit a form or pay, and
	// before a navigation to another site (internal/actions/ask.go); a
	// refusal fails with declined_by_user. Off by default.
	AskBeforeIrreversible bool `json:"askBeforeIrreversible,omitempty"`
	// DownloadMaxBytes caps a file the bridge's actions download: a larger
	// download is cancelled (0: DefaultDownloadMaxBytes).
	DownloadMaxBytes int64 `json:"downloadMaxBytes,omitempty"`
	// RefuseProgramEvaluate refuses programs' scripts in pages: the
	// program door's Runtime.evaluate and callFunctionOn (`policy
	// program-evaluate off`). Off by default, as Hive's server needs them.
	RefuseProgramEvaluate bool `json:"refuseProgramEvaluate,omitempty"`
	// AllowEvaluate lets the agent run JavaScript in pages (the evaluate
	// action): `policy evaluate on`, or the switch on the extension's
	// page. Off by default: until the user turns it on, evaluate fails
	// with evaluate_disabled.
	AllowEvaluate bool `json:"allowEvaluate,omitempty"`

	// other holds the keys this version does not know (a newer version's,
	// or the user's own), so that Save writes them back unchanged.
	other map[string]json.RawMessage
}

// DefaultDownloadMaxBytes is the cap on one download when the settings
// give none.
const DefaultDownloadMaxBytes = 512 << 20

// DownloadCap is the cap on one download in force.
func (s Settings) DownloadCap() int64 {
	if s.DownloadMaxBytes > 0 {
		return s.DownloadMaxBytes
	}
	return DefaultDownloadMaxBytes
}

// File is the settings file of layout.
func File(l paths.Layout) string { return filepath.Join(l.State, "settings.json") }

// Load reads the settings; a missing file gives the defaults.
func Load(l paths.Layout) (Settings, error) {
	var s Settings
	b, err := os.ReadFile(File(l))
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("%s is not valid JSON (%v); fix or remove it", File(l), err)
	}
	if err := json.Unmarshal(b, &s.other); err != nil {
		return s, fmt.Errorf("%s is not a JSON object (%v); fix or remove it", File(l), err)
	}
	for _, k := range []string{"disabled", "searchUrl", "paused", "policy", "keepSessionTabs", "sessionGraceSeconds", "askBeforeIrreversible", "downloadMaxBytes", "refuseProgramEvaluate", "allowEvaluate"} {
		delete(s.other, k)
	}
	return s, nil
}

// Save writes the settings (mode 0600, replaced whole so a reader never
// sees half a file).
func Save(l paths.Layout, s Settings) error {
	if err := paths.EnsurePrivateDir(l.State); err != nil {
		return err
	}
	all := map[string]any{}
	for k, v := range s.other {
		all[k] = v
	}
	if s.Disabled {
		all["disabled"] = true
	}
	if s.SearchURL != "" {
		all["searchUrl"] = s.SearchURL
	}
	if s.Paused {
		all["paused"] = true
	}
	if len(s.Policy.Allow)+len(s.Policy.Deny) > 0 {
		all["policy"] = s.Policy
	}
	if s.KeepSessionTabs {
		all["keepSessionTabs"] = true
	}
	if s.SessionGraceSeconds != 0 {
		all["sessionGraceSeconds"] = s.SessionGraceSeconds
	}
	if s.AskBeforeIrreversible {
		all["askBeforeIrreversible"] = true
	}
	if s.DownloadMaxBytes != 0 {
		all["downloadMaxBytes"] = s.DownloadMaxBytes
	}
	if s.RefuseProgramEvaluate {
		all["refuseProgramEvaluate"] = true
	}
	if s.AllowEvaluate {
		all["allowEvaluate"] = true
	}
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(File(l), append(b, '\n'), 0o600)
}

// Off returns the bridge_disabled error when the bridge is turned off, by
// protocol.EnvDisable or by the settings; nil when it is on.
func Off(l paths.Layout) *protocol.Error {
	if os.Getenv(protocol.EnvDisable) == "1" {
		return protocol.Errorf(protocol.CodeBridgeDisabled, "the bridge is disabled (%s=1); unset it to use the browser", protocol.EnvDisable)
	}
	s, err := Load(l)
	if err != nil {
		return protocol.Errorf(protocol.CodeBridgeDisabled, "the bridge is off because its settings cannot be read: %v", err)
	}
	if s.Disabled {
		return protocol.Errorf(protocol.CodeBridgeDisabled, "the bridge is disabled (browser-bridge disable); run `browser-bridge enable` to use the browser")
	}
	return nil
}

// Paused returns the paused_by_user error while the user has paused the
// bridge; nil otherwise (a settings file that cannot be read is Off's to
// report).
func Paused(l paths.Layout) *protocol.Error {
	s, err := Load(l)
	if err != nil || !s.Paused {
		return nil
	}
	return protocol.Errorf(protocol.CodePausedByUser, "the user has paused the bridge; wait for them to resume it (browser-bridge resume, or the switch on the extension's page) and try again — do not work around it")
}

// EvaluateOff returns the evaluate_disabled error until the user has
// turned evaluate on; nil once they have. A settings file that cannot be
// read keeps it off (Off reports the file).
func EvaluateOff(l paths.Layout) *protocol.Error {
	if s, err := Load(l); err == nil && s.AllowEvaluate {
		return nil
	}
	return protocol.Errorf(protocol.CodeEvaluateDisabled, "evaluate is off: the user has not allowed the agent to run JavaScript in pages. Ask the user to run `browser-bridge policy evaluate on` (or to turn on \"Let the agent run JavaScript\" on the extension's page), then try again; `browser-bridge policy evaluate off` turns it off again")
}

// AskBeforeIrreversible says whether the user wants to be asked before
// the agent's irreversible steps (a settings file that cannot be read is
// Off's to report: the bridge does nothing then).
func AskBeforeIrreversible(l paths.Layout) bool {
	s, err := Load(l)
	return err == nil && s.AskBeforeIrreversible
}
