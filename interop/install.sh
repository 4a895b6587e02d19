#!/usr/bin/env sh
# Installs the pinned interop dependencies (npm ci) when node_modules is missing or older than the
# lockfile. Called by the Maven build before the interop tests; a missing or old Node.js fails the
# build here with a message, because the interop tests are the point and must not be skipped.
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
if ! command -v node >/dev/null 2>&1; then
  echo "legate interop: Node.js >= 20 is required for the interop tests and was not found on PATH." >&2
  echo "legate interop: install Node.js 20 or newer (with npm), then run the build again." >&2
  exit 1
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
  echo "legate interop: Node.js >= 20 is required for the interop tests; found $(node --version)." >&2
  exit 1
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "legate interop: npm was not found next to Node.js $(node --version); install npm." >&2
  exit 1
fi
stamp="$here/node_modules/.package-lock.json"
if [ -f "$stamp" ] && [ ! "$here/package-lock.json" -nt "$stamp" ] && [ ! "$here/package.json" -nt "$stamp" ]; then
  exit 0
fi
echo "legate interop: npm ci in interop/" >&2
cd "$here"
npm ci --no-audit --no-fund --loglevel=error
