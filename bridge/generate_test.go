package bridge_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/clientgen"
)

// The action methods are the contract's as it stands: a spec added or
// changed in internal/tool without go generate ./bridge fails here.
func TestGeneratedIsCurrent(t *testing.T) {
	t.Parallel()
	want, err := clientgen.Generate("..")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(clientgen.File)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("bridge/%s is stale: run go generate ./bridge", clientgen.File)
	}
}
