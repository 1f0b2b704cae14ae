package extension

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/version"
)

func TestManifestMatchesBinary(t *testing.T) {
	b, err := fs.ReadFile(FS(), "manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Version     string   `json:"version"`
		Incognito   string   `json:"incognito"`
		Permissions []string `json:"permissions"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Version != version.Version {
		t.Errorf("manifest version %q, binary %q", m.Version, version.Version)
	}
	if m.Incognito != "spanning" {
		t.Errorf("incognito %q, want spanning", m.Incognito)
	}
	for _, p := range m.Permissions {
		if p == "cookies" || p == "history" {
			t.Errorf("permission %q must not be requested", p)
		}
	}
	js, _ := fs.ReadFile(FS(), "protocol.js")
	if m := regexp.MustCompile(`(?m)^export const PROTOCOL_VERSION = (\d+);$`).FindSubmatch(js); m == nil || string(m[1]) != strconv.Itoa(protocol.Version) {
		t.Errorf("protocol.js and internal/protocol (Version %d) disagree on the protocol version", protocol.Version)
	}
	if !strings.Contains(string(js), `"`+protocol.NativeHostName+`"`) {
		t.Error("protocol.js names another native host")
	}
}

// Every relative import of the extension must be embedded, or Chrome fails
// to load the service worker.
func TestImportsAreEmbedded(t *testing.T) {
	re := regexp.MustCompile(`from "(\./[^"]+|\.\./[^"]+)"`)
	fs.WalkDir(FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if !strings.HasSuffix(p, ".js") {
			return nil
		}
		b, _ := fs.ReadFile(FS(), p)
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			target := filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(p), m[1])))
			if _, err := fs.Stat(FS(), target); err != nil {
				t.Errorf("%s imports %s, which is not embedded", p, m[1])
			}
		}
		return nil
	})
}

func TestWriteTo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ext")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "stale.js"), nil, 0o644)
	if err := WriteTo(dir); err == nil {
		t.Fatal("cleared a folder that holds no extension")
	}
	// Another extension's folder is not ours to clear either.
	os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(`{"name":"Other","key":"MIIBother"}`), 0o644)
	if err := WriteTo(dir); err == nil || IsExtensionDir(dir) {
		t.Fatal("cleared another extension's folder")
	}
	// A file, or a link, given as the folder is never replaced.
	file := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(file, []byte("important"), 0o644)
	if err := WriteTo(file); err == nil {
		t.Fatal("a file was taken for a folder")
	}
	if b, _ := os.ReadFile(file); string(b) != "important" {
		t.Fatal("the file is gone")
	}
	// The extension's own source folder (Go files beside it) is not a copy.
	if IsExtensionDir(".") {
		t.Fatal("the source folder passes for a written copy")
	}
	// An earlier copy of ours is replaced.
	ours, _ := fs.ReadFile(FS(), "manifest.json")
	os.WriteFile(filepath.Join(dir, "manifest.json"), ours, 0o644)
	if err := WriteTo(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "handlers", "tabs.js")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "stale.js")); err == nil {
		t.Fatal("a stale file from an earlier version survived")
	}
	// Someone's folder dropped inside makes it not ours to clear.
	os.MkdirAll(filepath.Join(dir, "mydata"), 0o755)
	os.WriteFile(filepath.Join(dir, "mydata", "keep.txt"), []byte("x"), 0o644)
	if err := WriteTo(dir); err == nil || IsExtensionDir(dir) {
		t.Fatal("a folder holding someone's data was cleared")
	}
}

// The action scripts that handlers/readiness.js injects into the bridge's
// tabs at each commit begin with V8's compile hint, so their functions
// are compiled then and not on the first action. V8 takes the hint at
// the top of a file; the test keeps it on the first line, where it
// certainly counts, so that no header comment or code pushes it down and
// silently turns it off.
func TestActionScriptsCarryTheCompileHint(t *testing.T) {
	src, err := fs.ReadFile(FS(), "handlers/readiness.js")
	if err != nil {
		t.Fatal(err)
	}
	list := regexp.MustCompile(`const ACT_FILES = \[([^\]]*)\]`).FindSubmatch(src)
	if list == nil {
		t.Fatal("handlers/readiness.js has no ACT_FILES list")
	}
	files := regexp.MustCompile(`"([^"]+)"`).FindAllSubmatch(list[1], -1)
	if len(files) == 0 {
		t.Fatal("ACT_FILES names no file")
	}
	for _, f := range files {
		b, err := fs.ReadFile(FS(), string(f[1]))
		if err != nil {
			t.Fatalf("ACT_FILES names %s: %v", f[1], err)
		}
		if first, _, _ := strings.Cut(string(b), "\n"); first != "//# allFunctionsCalledOnLoad" {
			t.Errorf("%s begins with %q, not the compile hint //# allFunctionsCalledOnLoad", f[1], first)
		}
	}
}
