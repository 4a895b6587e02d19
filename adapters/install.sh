#!/usr/bin/env sh
# Installs the pinned real ACP adapters (claude-agent-acp, codex-acp) (npm ci) when node_modules is missing or older than the
# lockfile. Called by the Maven build before the bridge tests and by users who want the real adapters; a missing Node.js fails the
# build here with a message.
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
if ! command -v node >/dev/null 2>&1; then
  echo "legate adapters: Node.js >= 20 is required for the ACP adapters and was not found on PATH." >&2
  echo "legate adapters: install Node.js 20 or newer (with npm), then run the build again." >&2
  exit 1
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
  echo "legate adapters: Node.js >= 20 is required for the ACP adapters; found $(node --version)." >&2
  exit 1
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "legate adapters: npm was not found next to Node.js $(node --version); install npm." >&2
  exit 1
fi
stamp="$here/node_modules/.package-lock.json"
if [ -f "$stamp" ] && [ ! "$here/package-lock.json" -nt "$stamp" ] && [ ! "$here/package.json" -nt "$stamp" ]; then
  exit 0
fi
echo "legate adapters: npm ci in adapters/" >&2
cd "$here"
npm ci --no-audit --no-fund --loglevel=error
