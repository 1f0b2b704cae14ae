package nmhost

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

const extraID = "bcdefghijklmnopabcdefghijklmnopa" // a well-formed ID that is not ours

func TestCheckOrigin(t *testing.T) {
	t.Parallel()
	dev := "chrome-extension://" + protocol.DevExtensionID + "/"
	allowed := []string{dev, "chrome-extension://" + extraID + "/"}
	for _, tc := range []struct {
		caller string
		ok     bool
	}{
		{dev, true},
		{"chrome-extension://" + protocol.DevExtensionID, true}, // no trailing slash
		{"chrome-extension://" + extraID + "/", true},           // an extra origin
		{" " + dev + " ", true},                                 // stray whitespace
		{"", false},
		{"chrome-extension://", false},
		{"chrome-extension:///", false},
		{"https://" + protocol.DevExtensionID + "/", false},         // wrong scheme
		{"moz-extension://" + protocol.DevExtensionID + "/", false}, // wrong scheme
		{"chrome-extension://" + strings.ToUpper(protocol.DevExtensionID) + "/", false},
		{"chrome-extension://" + protocol.DevExtensionID + "/x", false}, // a path
		{"chrome-extension://" + protocol.DevExtensionID + "//", false},
		{"chrome-extension://" + protocol.DevExtensionID[:31] + "/", false},    // too short
		{"chrome-extension://" + protocol.DevExtensionID + "a/", false},        // too long
		{"chrome-extension://" + strings.Repeat("q", 32) + "/", false},         // outside a-p
		{"chrome-extension://" + strings.Repeat("a", 32) + "/", false},         // well formed, not allowed
		{"chrome-extension://chrome-extension://" + extraID + "/", false},      // prefix twice
		{"--parent-window=0 chrome-extension://" + extraID + "/", false},       // not the origin argument
		{"chrome-extension://" + protocol.DevExtensionID + "/\x00", false},     // trailing NUL
		{"chrome-extension://" + protocol.DevExtensionID + "/\n" + dev, false}, // two lines
	} {
		err := CheckOrigin(tc.caller, allowed)
		if tc.ok && err != nil {
			t.Errorf("CheckOrigin(%q): %v, want allowed", tc.caller, err)
		}
		if !tc.ok {
			if !errors.Is(err, ErrOriginRefused) {
				t.Errorf("CheckOrigin(%q): %v, want ErrOriginRefused", tc.caller, err)
			} else if !strings.Contains(err.Error(), EnvOrigins) {
				t.Errorf("CheckOrigin(%q): %q does not say how to allow an origin (%s)", tc.caller, err, EnvOrigins)
			}
		}
	}
}

func TestCheckOriginWithNothingAllowed(t *testing.T) {
	t.Parallel()
	dev := "chrome-extension://" + protocol.DevExtensionID + "/"
	if err := CheckOrigin(dev, nil); !errors.Is(err, ErrOriginRefused) {
		t.Errorf("CheckOrigin with an empty allow-list: %v, want ErrOriginRefused", err)
	}
}

// Not parallel: it sets the environment.
func TestAllowedOriginsReadsEnvironmentAndFileBesideTheBinary(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "browser-bridge")
	fromEnv := strings.Repeat("b", 32)
	fromFile := strings.Repeat("c", 32)
	fromFileBare := strings.Repeat("d", 32)
	t.Setenv(EnvOrigins, " chrome-extension://"+fromEnv+"/ ,not-an-id,,")
	// install writes one origin per line; a host started by Chrome reads
	// it because it does not see the user's shell environment.
	if err := os.WriteFile(filepath.Join(dir, OriginsFile), []byte("chrome-extension://"+fromFile+"\n"+fromFileBare+"\n\njunk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"chrome-extension://" + protocol.DevExtensionID + "/",
		"chrome-extension://" + fromEnv + "/",
		"chrome-extension://" + fromFile + "/",
		"chrome-extension://" + fromFileBare + "/",
	}
	if diff := cmp.Diff(want, AllowedOrigins(exe)); diff != "" {
		t.Errorf("AllowedOrigins (-want +got):\n%s", diff)
	}
	// Without the file and the variable only the development ID is left.
	t.Setenv(EnvOrigins, "")
	if diff := cmp.Diff(want[:1], AllowedOrigins(filepath.Join(t.TempDir(), "bb"))); diff != "" {
		t.Errorf("AllowedOrigins with nothing extra (-want +got):\n%s", diff)
	}
}

func TestNormalizeOriginAndIDOf(t *testing.T) {
	t.Parallel()
	id := protocol.DevExtensionID
	for _, in := range []string{id, "chrome-extension://" + id, "chrome-extension://" + id + "/", "\t" + id + "\n"} {
		if got, want := NormalizeOrigin(in), "chrome-extension://"+id+"/"; got != want {
			t.Errorf("NormalizeOrigin(%q) = %q, want %q", in, got, want)
		}
		if got := IDOf(NormalizeOrigin(in)); got != id {
			t.Errorf("IDOf(NormalizeOrigin(%q)) = %q, want %q", in, got, id)
		}
	}
}
