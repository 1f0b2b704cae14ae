#!/usr/bin/env node
// Runs the browser-bridge binary of this machine's platform package, which
// npm installed beside this one through optionalDependencies (each
// platform package declares its os and cpu, so npm fetches only the one
// that fits; nothing is downloaded at run time). Arguments, stdio, the
// exit code and signals pass straight through: as an MCP server the binary
// speaks JSON-RPC on stdin and stdout.
'use strict';

const { spawn } = require('child_process');
const fs = require('fs');

const platform = `${process.platform}-${process.arch}`;
const pkg = `@browser-bridge/${platform}`;
const exe = process.platform === 'win32' ? 'browser-bridge.exe' : 'browser-bridge';

function findBinary() {
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch (err) {
    process.stderr.write(
      `browser-bridge: the package ${pkg} with the binary for this machine is not installed.\n` +
      `Reinstall without --no-optional (npm install browser-bridge), or get a release archive ` +
      `from https://github.com/browser-bridge/browser-bridge/releases (platforms: linux, darwin, win32 on x64 and arm64).\n`);
    process.exit(1);
  }
}

const bin = findBinary();
// Some ways of unpacking a tarball drop the executable bit; put it back
// where the folder is ours to change (a failure shows up at spawn below).
if (process.platform !== 'win32') {
  try { fs.accessSync(bin, fs.constants.X_OK); } catch { try { fs.chmodSync(bin, 0o755); } catch {} }
}

// BROWSER_BRIDGE_NPM tells the binary it runs from an npm package: the
// folder it sits in may be the npx cache, so `install` copies it to a
// lasting place and `mcp --print-config` prints the npx command.
const child = spawn(bin, process.argv.slice(2), {
  stdio: 'inherit',
  env: { ...process.env, BROWSER_BRIDGE_NPM: '1' },
  windowsHide: false,
});

// A signal to this launcher goes on to the binary, which then ends the way
// it chooses; the launcher ends the way the binary did.
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'];
for (const sig of forwarded) {
  process.on(sig, () => { try { child.kill(sig); } catch {} });
}

child.on('error', (err) => {
  process.stderr.write(`browser-bridge: cannot start ${bin}: ${err.message}\n`);
  process.exit(1);
});

child.on('exit', (code, signal) => {
  if (signal) {
    for (const sig of forwarded) process.removeAllListeners(sig);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
