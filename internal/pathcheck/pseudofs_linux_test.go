package pathcheck

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// TestCheckRefusesPseudoFiles: files of /proc, /sys and /dev stat as
// regular files and are readable, yet upload must refuse them — however the
// path reaches them — with the usual error shape and a way forward.
func TestCheckRefusesPseudoFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("/proc/self", filepath.Join(dir, "me")); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, path, rule string }{
		{"own environment", "/proc/self/environ", "under /proc"},
		{"process status", "/proc/self/status", "under /proc"},
		{"process via pid", "/proc/" + strconv.Itoa(os.Getpid()) + "/cmdline", "under /proc"},
		{"kernel info", "/proc/cpuinfo", "under /proc"},
		{"dot dot into proc", "/etc/../proc/self/environ", "under /proc"},
		{"symlinked parent into proc", filepath.Join(dir, "me", "environ"), "under /proc"},
		{"sysfs", firstRegular("/sys/kernel/uevent_seqnum", "/sys/kernel/address_bits", "/sys/kernel/mm/transparent_hugepage/enabled", "/sys/power/state"), "under /sys"},
	}
	if f, err := os.CreateTemp("/dev/shm", "pathcheck-*.txt"); err == nil {
		f.Close()
		t.Cleanup(func() { os.Remove(f.Name()) })
		tests = append(tests, struct{ name, path, rule string }{"shared memory", f.Name(), "under /dev"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The premise: without the rule these would pass.
			if fi, err := os.Stat(tt.path); tt.path == "" || err != nil || !fi.Mode().IsRegular() {
				t.Skipf("%q is not a regular file here: %v", tt.path, err)
			}
			wantPseudoRefusal(t, tt.path, tt.rule)
		})
	}
}

// TestPseudoFSType checks the filesystem rule alone, which is what catches
// a pseudo-filesystem mounted away from its usual root.
func TestPseudoFSType(t *testing.T) {
	for path, want := range map[string]string{
		"/proc/self/status": "proc",
		"/sys/kernel":       "sysfs",
		"/dev/pts":          "devpts",
		t.TempDir():         "",
		"/etc/hostname":     "",
	} {
		got, err := pseudoFSType(path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil || got != want {
			t.Errorf("pseudoFSType(%q) = %q, %v; want %q", path, got, err, want)
		}
	}
}

// TestCheckRefusesProcMountedElsewhere mounts a proc filesystem under a
// temporary folder, where no prefix names it, and expects the statfs rule
// to refuse it. It needs root and a mount namespace that allows it.
func TestCheckRefusesProcMountedElsewhere(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting needs root")
	}
	mnt := filepath.Join(t.TempDir(), "mnt")
	os.Mkdir(mnt, 0o755)
	if err := syscall.Mount("proc", mnt, "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
		t.Skipf("cannot mount proc here: %v", err)
	}
	// Registered after TempDir, so it runs before the folder is removed.
	t.Cleanup(func() { syscall.Unmount(mnt, syscall.MNT_DETACH) })
	wantPseudoRefusal(t, filepath.Join(mnt, strconv.Itoa(os.Getpid()), "environ"), "on a proc mount")
}

func wantPseudoRefusal(t *testing.T, path, rule string) {
	t.Helper()
	_, err := Check([]string{path})
	if protocol.CodeOf(err) != protocol.CodeUploadPathRejected {
		t.Fatalf("%s: got %v, want upload_path_rejected", path, err)
	}
	for _, want := range []string{path, rule, "pseudo-filesystem", "copy it to an ordinary folder"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("error %q does not say %q", err, want)
		}
	}
}

// firstRegular returns the first of paths that is a readable regular file,
// or "" (the subtest then skips): /sys differs between kernels and
// containers.
func firstRegular(paths ...string) string {
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			if f, err := os.Open(p); err == nil {
				f.Close()
				return p
			}
		}
	}
	return ""
}
