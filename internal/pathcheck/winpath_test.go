package pathcheck

import (
	"strings"
	"testing"
)

// The Windows rules are text, so they are tested here on every OS; on
// Windows, Open and Refused apply them first (open_windows.go).

func TestWindowsRulesRefuse(t *testing.T) {
	const home = `C:\Users\me`
	for _, tc := range []struct{ path, why string }{
		// Other machines and devices.
		{`\\server\share\report.pdf`, "another machine"},
		{`//server/share/report.pdf`, "another machine"},
		{`\\?\UNC\server\share\report.pdf`, "another machine"},
		{`\??\UNC\server\share\report.pdf`, "another machine"},
		{`\\.\PhysicalDrive0`, "device"},
		{`\\.\pipe\browser-bridge-1`, "device"},
		{`\\.\C:\Users\me\report.pdf`, "device"},
		{`\\?\GLOBALROOT\Device\HarddiskVolumeShadowCopy1\Users\me\.ssh\id_rsa`, "device"},
		// Not absolute.
		{`C:report.pdf`, "current folder of drive C:"},
		{`report.pdf`, "absolute"},
		{`\Users\me\report.pdf`, "absolute"},
		// Alternate data streams.
		{home + `\report.txt:secret`, "alternate data stream"},
		{home + `\report.txt::$DATA`, "alternate data stream"},
		{`\\?\` + home + `\report.txt:hidden:$DATA`, "alternate data stream"},
		// Short names hide the long ones.
		{home + `\AppData\Local\Google\Chrome\USERDA~1\Default\LOGIND~1`, "short (8.3) name"},
		{`C:\PROGRA~1\notes.txt`, "short (8.3) name"},
		// Devices in every folder.
		{home + `\Documents\nul.txt`, "device name"},
		{home + `\CON`, "device name"},
		{home + `\com1.log`, "device name"},
		{home + `\AUX.`, "device name"},
		{home + `\conin$`, "device name"},
		// Secrets, through prefixes, case, slashes and trailing dots.
		{home + `\.ssh\id_ed25519`, ".ssh"},
		{`\\?\` + home + `\.SSH\config`, ".ssh"},
		{`C:/Users/me/.ssh/id_rsa`, ".ssh"},
		{home + `\.aws.\credentials`, "AWS"},
		{home + `\.aws \config`, "AWS"},
		{home + `\Documents\server.KEY.`, ".key"},
		{home + `\_netrc`, "remote hosts"},
		// Windows's credential places.
		{home + `\AppData\Roaming\Microsoft\Credentials\DFBE70A7E5CC19A398EBF1B96859CE5D`, "credential"},
		{home + `\AppData\Local\Microsoft\Credentials\x`, "credential"},
		{home + `\AppData\Roaming\Microsoft\Protect\S-1-5-21-1-2-3-1001\8a2f`, "DPAPI"},
		{home + `\AppData\Local\Microsoft\Vault\4BF4C442\Policy.vpol`, "Credential Manager"},
		{home + `\AppData\Roaming\Microsoft\Crypto\RSA\S-1-5-21-1\key`, "private keys"},
		{home + `\AppData\Roaming\Microsoft\SystemCertificates\My\Certificates\A1`, "certificates"},
		{`C:\Windows\System32\config\SAM`, "registry hives"},
		{`c:\windows\system32\CONFIG\RegBack\SYSTEM`, "registry hives"},
		{home + `\NTUSER.DAT`, "registry"},
		{home + `\ntuser.dat.LOG1`, "registry"},
		{home + `\AppData\Local\Microsoft\Windows\UsrClass.dat`, "registry"},
		// Browser profiles.
		{home + `\AppData\Local\Google\Chrome\User Data\Default\Login Data`, "saved passwords"},
		{home + `\AppData\Local\Microsoft\Edge\User Data\Local State`, "encryption key"},
		{home + `\AppData\Local\BraveSoftware\Brave-Browser\User Data\Default\Network\Cookies`, "cookies"},
		{home + `\AppData\Roaming\Mozilla\Firefox\Profiles\a.default\logins.json`, "Firefox"},
		// Tools' tokens where Windows keeps them.
		{home + `\AppData\Roaming\GitHub CLI\hosts.yml`, "GitHub CLI"},
		{home + `\AppData\Roaming\gcloud\credentials.db`, "credential"},
		{home + `\AppData\Roaming\gcloud\configurations\config_default`, "Google Cloud"},
		{home + `\AppData\Roaming\Microsoft\Windows\PowerShell\PSReadLine\ConsoleHost_history.txt`, "history"},
		{home + `\.git-credentials`, "credential"},
	} {
		why := windowsRefusal(tc.path)
		if !strings.Contains(strings.ToLower(why), strings.ToLower(tc.why)) {
			t.Errorf("%s: refusal %q, want one about %q", tc.path, why, tc.why)
		}
	}
}

func TestWindowsRulesAccept(t *testing.T) {
	for _, p := range []string{
		`C:\Users\me\Documents\report.pdf`,
		`\\?\C:\Users\me\Documents\report.pdf`,
		`c:/Users/me/Documents/report.pdf`,
		`D:\photos\2024\keystone.jpg`,
		`C:\Users\me\Documents\console.txt`,
		`C:\Users\me\Documents\conference.pdf`,
		`C:\data\aux-notes.txt`,
		`C:\Users\me\Documents\my~file.txt`,
		`C:\Users\me\Documents\backup~2024-01.zip`,
		`C:\Users\me\Downloads\Login Page.png`,
		`C:\Users\me\AppData\Local\Google\Chrome\User Data\Default\Bookmarks`,
		`C:\Users\me\Documents\Microsoft\notes.docx`,
		`C:\Windows\System32\drivers\etc\hosts`,
	} {
		if why := windowsRefusal(p); why != "" {
			t.Errorf("%s refused: %s", p, why)
		}
	}
}

// Every refusal says what to do, or at least what the path is, so that an
// agent can act on it.
func TestWindowsRefusalsSayWhatToDo(t *testing.T) {
	for p, want := range map[string]string{
		`\\host\share\a.txt`:        "copy the file to a local folder",
		`C:a.txt`:                   `C:\`,
		`C:\a.txt:s`:                "upload the file itself",
		`C:\PROGRA~1\a.txt`:         "long names",
		`C:\Users\me\.ssh\id_rsa`:   "upload another file",
		`C:\Users\me\Desktop\nul.x`: "not a file",
	} {
		if why := windowsRefusal(p); !strings.Contains(why, want) {
			t.Errorf("%s: %q does not say %q", p, why, want)
		}
	}
}

func FuzzWindowsRefusal(f *testing.F) {
	for _, s := range []string{`C:\a`, `\\?\C:\a:b`, `\\h\s`, `C:`, ``, `\\?\`, `\\.\`, `C:\PROGRA~1`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		windowsRefusal(p) // must not panic
	})
}
