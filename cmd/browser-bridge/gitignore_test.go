package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The e2e fixtures' node_modules is ignored whether it is a folder (npm
// ci) or a symlink to a shared one, as engineers make it: a pattern with
// a trailing slash matches only a folder, so the symlink showed up as a
// file to commit. The check runs git on a scratch repository holding the
// project's .gitignore, so the project's own tree is left alone.
func TestGitignoreCoversNodeModulesFolderAndSymlink(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatal("git is needed for this test (it checks .gitignore with git check-ignore); install git")
	}
	ignore, err := os.ReadFile(filepath.Join("..", "..", ".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"folder", "symlink"} {
		repo := t.TempDir()
		if out, err := exec.Command(git, "init", "-q", repo).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v: %s", err, out)
		}
		if err := os.WriteFile(filepath.Join(repo, ".gitignore"), ignore, 0o644); err != nil {
			t.Fatal(err)
		}
		testdata := filepath.Join(repo, "e2e", "testdata")
		if err := os.MkdirAll(testdata, 0o755); err != nil {
			t.Fatal(err)
		}
		nm := filepath.Join(testdata, "node_modules")
		if kind == "folder" {
			err = os.Mkdir(nm, 0o755)
		} else {
			err = os.Symlink(t.TempDir(), nm)
		}
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(git, "check-ignore", "-q", "e2e/testdata/node_modules")
		cmd.Dir = repo
		if err := cmd.Run(); err != nil {
			t.Errorf("git check-ignore of node_modules as a %s: %v, want it ignored", kind, err)
		}
	}
}
