package pathcheck

import (
	"regexp"
	"strings"
)

// Windows paths have forms of their own that the rules must see through
// or refuse. They are checked on the text, like the rest of the rules, and
// the code is pure string work that compiles everywhere, so the tests run
// on any OS (winpath_test.go); open_windows.go calls windowsRefusal.
//
//   - \\?\C:\x and \??\C:\x are C:\x without Win32's normalisation: the
//     rules read the path behind the prefix. \\?\UNC\host\share is a
//     network path.
//   - \\.\ names devices (\\.\PhysicalDrive0, \\.\pipe\x), and so does
//     \\?\GLOBALROOT\: refused.
//   - \\host\share\x (UNC) is a file on another machine: refused, because
//     opening it makes Windows sign in to that machine with the user's
//     credentials (NTLM), which hands a hash of them to whoever runs it.
//   - C:x (a drive without a backslash) is relative to that drive's
//     current folder: not absolute.
//   - A colon after the drive names an alternate data stream
//     (report.txt:hidden, report.txt::$DATA): a hidden part of a file
//     that no folder listing shows. Refused.
//   - A component of an 8.3 short name (LOGIND~1 for "Login Data") hides
//     the long name the rules read: refused; the long name works.
//   - Windows drops trailing dots and spaces of a name (".aws." opens
//     ".aws"): components() trims them for every OS.
//   - CON, NUL, AUX, PRN, COM1-9, LPT1-9 (with any extension) are devices
//     in every folder: refused.
//   - Names compare case-insensitively (fold), as NTFS does.

var (
	shortName    = regexp.MustCompile(`^[^~.]{1,6}~[0-9]+(\.[^.]{0,3})?$`)
	reservedName = regexp.MustCompile(`(?i)^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\..*)?$`)
	driveAbs     = regexp.MustCompile(`^[A-Za-z]:[\\/]`)
)

// windowsRefusal says why the Windows path p, as written, is refused
// before anything touches the file system, or returns "". It applies the
// Windows forms above and then the secret-name rules to the path behind
// any prefix.
func windowsRefusal(p string) string {
	rest, why := windowsLocal(p)
	if why != "" {
		return why
	}
	comps := components(strings.ReplaceAll(rest[2:], `\`, "/")) // "/" splits on every OS
	for _, c := range comps {
		switch {
		case strings.ContainsRune(c, ':'):
			return "the path names an alternate data stream (" + c + "), a hidden part of a file; upload the file itself"
		case reservedName.MatchString(strings.TrimRight(c, ". ")):
			return "the component " + quote(c) + " is a Windows device name (CON, NUL, COM1, …), not a file"
		case shortName.MatchString(c):
			return "the component " + quote(c) + " is a short (8.3) name, which hides the long name the rules check; give the path with its long names"
		}
	}
	if c, what := secretIn(comps); c != "" {
		return "its component " + quote(c) + " names secrets (" + what + "); the bridge never uploads such files — upload another file"
	}
	return ""
}

// windowsLocal strips the \\?\ or \??\ prefix from p and returns the path
// behind it, which starts with a drive ("C:\"), or says why p is not a
// path on a local drive.
func windowsLocal(p string) (string, string) {
	s := strings.ReplaceAll(p, "/", `\`)
	upper := strings.ToUpper(s)
	switch {
	case strings.HasPrefix(upper, `\\?\UNC\`), strings.HasPrefix(upper, `\??\UNC\`):
		return "", uncRefusal
	case strings.HasPrefix(upper, `\\?\GLOBALROOT`), strings.HasPrefix(upper, `\??\GLOBALROOT`), strings.HasPrefix(s, `\\.\`):
		return "", "the path names a device (" + p + "), not a file"
	case strings.HasPrefix(s, `\\?\`), strings.HasPrefix(s, `\??\`):
		s = s[4:]
	case strings.HasPrefix(s, `\\`):
		return "", uncRefusal
	}
	if !driveAbs.MatchString(s) {
		if len(s) >= 2 && s[1] == ':' {
			return "", "the path is relative to the current folder of drive " + s[:2] + "; give it with the backslash after the drive (" + s[:2] + `\…)`
		}
		return "", "the path must be absolute and on a drive (C:\\…)"
	}
	return s, ""
}

const uncRefusal = "the path is on another machine (a UNC path, \\\\host\\share): opening it would sign in to that machine with your Windows credentials; copy the file to a local folder and upload the copy"

func quote(s string) string { return `"` + s + `"` }
