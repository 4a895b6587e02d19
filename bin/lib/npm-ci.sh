#!/usr/bin/env sh
# npm-ci.sh DIR: installs DIR's pinned npm dependencies (npm ci) when DIR/node_modules is missing or
# older than the lockfile. Used for interop/ (the official SDKs the interop tests drive) and
# adapters/ (the real ACP adapters). A missing or old Node.js fails here with a message, because
# the tests that need it must never be skipped quietly.
set -eu
dir=$(CDPATH= cd -- "$1" && pwd)
name=$(basename "$dir")
if ! command -v node >/dev/null 2>&1; then
  echo "legate $name: Node.js >= 20 is required and was not found on PATH." >&2
  echo "legate $name: install Node.js 20 or newer (with npm), then run the build again." >&2
  exit 1
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
  echo "legate $name: Node.js >= 20 is required; found $(node --version)." >&2
  exit 1
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "legate $name: npm was not found next to Node.js $(node --version); install npm." >&2
  exit 1
fi
stamp="$dir/node_modules/.package-lock.json"
if [ -f "$stamp" ] && [ ! "$dir/package-lock.json" -nt "$stamp" ] && [ ! "$dir/package.json" -nt "$stamp" ]; then
  exit 0
fi
echo "legate $name: npm ci in $name/" >&2
cd "$dir"
npm ci --no-audit --no-fund --loglevel=error
