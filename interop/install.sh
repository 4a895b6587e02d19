#!/usr/bin/env sh
# Installs interop/'s pinned npm dependencies when they are missing or stale (see bin/lib/npm-ci.sh).
exec sh "$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)/../bin/lib/npm-ci.sh" "$(dirname -- "$0")"
