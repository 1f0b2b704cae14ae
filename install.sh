#!/usr/bin/env bash
# Installs Browser Bridge on Linux or macOS from a release:
#
#   curl -fsSL https://github.com/browser-bridge/browser-bridge/releases/latest/download/install.sh | bash
#
# It picks the archive for this machine, checks it against SHA256SUMS,
# puts the binary in BROWSER_BRIDGE_INSTALL_DIR and runs
# `browser-bridge install` (the extension and the native host).
#
#   BROWSER_BRIDGE_RELEASE_URL  where the release files are: a URL, or a
#                               file:// folder (default: the GitHub release)
#   BROWSER_BRIDGE_VERSION      the version to install (default: the newest)
#   BROWSER_BRIDGE_INSTALL_DIR  the folder for the binary (default ~/.local/bin)
set -euo pipefail

die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

repo_url=https://github.com/browser-bridge/browser-bridge/releases
version=${BROWSER_BRIDGE_VERSION:-}
install_dir=${BROWSER_BRIDGE_INSTALL_DIR:-$HOME/.local/bin}
if [ -n "${BROWSER_BRIDGE_RELEASE_URL:-}" ]; then
  base=${BROWSER_BRIDGE_RELEASE_URL%/}
elif [ -n "$version" ]; then
  base=$repo_url/download/v$version
else
  base=$repo_url/latest/download
fi

case $(uname -s) in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) die "this script is for Linux and macOS; on Windows download browser-bridge_VERSION_windows_amd64.zip from $repo_url and run browser-bridge.exe install" ;;
esac
case $(uname -m) in
  x86_64 | amd64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) die "no release for the processor $(uname -m); build from source with Go: go install github.com/browser-bridge/browser-bridge/cmd/browser-bridge@latest" ;;
esac
command -v curl >/dev/null 2>&1 || die "curl is needed; install it with your package manager and run this again"
command -v tar >/dev/null 2>&1 || die "tar is needed; install it with your package manager and run this again"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

fetch() { curl -fsSL --proto '=https,file' -o "$tmp/$1" "$base/$1" || die "cannot download $base/$1; check BROWSER_BRIDGE_RELEASE_URL and BROWSER_BRIDGE_VERSION"; }

fetch SHA256SUMS
if [ -z "$version" ]; then
  # The newest release's SHA256SUMS names its own version.
  version=$(sed -n "s/.*  browser-bridge_\(.*\)_${os}_${arch}\.tar\.gz\$/\1/p" "$tmp/SHA256SUMS" | head -n 1)
  [ -n "$version" ] || die "$base/SHA256SUMS lists no archive for $os/$arch"
fi
archive=browser-bridge_${version}_${os}_${arch}.tar.gz
want=$(awk -v f="$archive" '$2 == f { print $1 }' "$tmp/SHA256SUMS")
[ -n "$want" ] || die "$base/SHA256SUMS lists no $archive; is version $version released for $os/$arch?"
fetch "$archive"

if command -v sha256sum >/dev/null 2>&1; then
  got=$(sha256sum "$tmp/$archive" | awk '{print $1}')
else
  got=$(shasum -a 256 "$tmp/$archive" | awk '{print $1}')
fi
if [ "$got" != "$want" ]; then
  die "checksum mismatch for $archive: SHA256SUMS says $want, the download is $got. Nothing was installed. Download again; if it persists, report it (the file may have been tampered with)"
fi

mkdir -p "$tmp/x"
tar -xzf "$tmp/$archive" -C "$tmp/x" browser-bridge
mkdir -p "$install_dir"
# Through a temporary name and a rename: a running daemon keeps the old
# binary, and no one ever starts half a file.
cp "$tmp/x/browser-bridge" "$install_dir/.browser-bridge.new"
chmod 0755 "$install_dir/.browser-bridge.new"
mv -f "$install_dir/.browser-bridge.new" "$install_dir/browser-bridge"
bin=$install_dir/browser-bridge
echo "installed $bin ($("$bin" version))"

# install registers this binary (it runs from BROWSER_BRIDGE_INSTALL_DIR,
# a lasting place, so it is not copied elsewhere).
BROWSER_BRIDGE_INSTALL_DIR=$install_dir "$bin" install || die "\`browser-bridge install\` failed (above); fix what it says and run \`$bin install\`"

case ":$PATH:" in
  *":$install_dir:"*) ;;
  *) echo "note: $install_dir is not on your PATH; add it, or call $bin by its full path" ;;
esac
cat <<NEXT

Next:
  1. Load the extension: open chrome://extensions, turn on Developer mode,
     choose "Load unpacked" and pick the extension folder printed above.
  2. Hook up your agent, e.g.:  browser-bridge mcp --print-config claude
     (also codex, cursor, vscode), and paste what it prints.
  3. Check:  browser-bridge status
NEXT
