package e2e

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Linux /proc helpers for tests that look at the bridge's processes.

// allPIDs lists every process.
func allPIDs() []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		if p, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, p)
		}
	}
	return out
}

func cmdline(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return strings.ReplaceAll(string(b), "\x00", " ")
}

func environ(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	return string(b)
}

// hostPIDs are the native hosts Chrome started for this test binary's
// bridge (found by their argument and their BROWSER_BRIDGE_HOME).
func hostPIDs(t *testing.T) []int {
	t.Helper()
	var out []int
	for _, p := range allPIDs() {
		if strings.Contains(cmdline(p), "chrome-extension://") && strings.Contains(environ(p), "BROWSER_BRIDGE_HOME="+bridge.Home+"\x00") {
			out = append(out, p)
		}
	}
	sort.Ints(out)
	return out
}

// groupPIDs are the processes in the process group of the browser that
// launch started (launch prints the browser's pid, which leads its group).
func groupPIDs(t *testing.T, leader int) []int {
	t.Helper()
	var out []int
	for _, p := range allPIDs() {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/stat")
		if err != nil {
			continue
		}
		// Fields after the command name "(…)": state ppid pgrp …
		s := string(b)
		rest := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(rest) > 2 && rest[2] == strconv.Itoa(leader) {
			out = append(out, p)
		}
	}
	return out
}

// tcpListeners returns "pid:inode" for each listening TCP socket the
// processes hold.
func tcpListeners(t *testing.T, pids []int) []string {
	t.Helper()
	listening := map[string]bool{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		s := bufio.NewScanner(fh)
		for s.Scan() {
			fs := strings.Fields(s.Text())
			// sl local rem st tx:rx tr:when retrnsmt uid timeout inode
			if len(fs) > 9 && fs[3] == "0A" {
				listening[fs[9]] = true
			}
		}
		fh.Close()
	}
	var out []string
	for _, p := range pids {
		dir := "/proc/" + strconv.Itoa(p) + "/fd"
		fds, _ := os.ReadDir(dir)
		for _, fd := range fds {
			link, err := os.Readlink(filepath.Join(dir, fd.Name()))
			if err != nil || !strings.HasPrefix(link, "socket:[") {
				continue
			}
			inode := strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")
			if listening[inode] {
				out = append(out, strconv.Itoa(p)+":"+inode)
			}
		}
	}
	return out
}
