#!/usr/bin/env bash
# The system packages Legate's tests drive, installed when missing, so that the README's test command
# (./mvnw verify) passes on a fresh Debian machine by itself. The root build runs this once, first
# (exec-maven-plugin in pom.xml); -Dlegate.prerequisites.skip skips it for a build that must not call
# apt-get, and the tests that need a missing package then fail naming it.
#
#   openssl          the TLS and signed-card tests make their keys and test CA with it
#   systemd          systemd-analyze reads the units `legate service` writes with systemd's own parser
#   chromium         the tap's inspector page is tested in a real headless Chromium...
#   chromium-driver  ...driven through its chromedriver
#
# As root it runs apt-get itself; otherwise it uses sudo when sudo needs no password (sudo -n);
# otherwise it fails at once, naming the packages and the command that installs them.
set -euo pipefail

missing=()
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
  || command -v google-chrome >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

how="apt-get install ${missing[*]}"
as_root=()
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
    as_root=(sudo -n)
  else
    echo "legate tests: missing system packages: ${missing[*]}." >&2
    echo "  Install them (sudo $how), then run the build again;" >&2
    echo "  or build without them: ./mvnw verify -Dlegate.prerequisites.skip (the tests that need them fail)." >&2
    exit 1
  fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "legate tests: missing system packages: ${missing[*]} (Debian names); no apt-get here to install them." >&2
  echo "  Install their equivalents with this system's package manager, then run the build again." >&2
  exit 1
fi

echo "legate tests: installing ${missing[*]} with ${as_root[*]:+${as_root[*]} }apt-get (skip with -Dlegate.prerequisites.skip)"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
