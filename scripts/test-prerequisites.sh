#!/usr/bin/env bash
# The system packages Legate's tests drive, installed when missing, so that the README's test command
# (./mvnw verify) passes on a fresh Debian machine by itself. The root build runs this once, first
# (maven-antrun-plugin in pom.xml, phase validate); -Dlegate.prerequisites.skip skips it for a build
# that must not call apt-get, and the tests that need a missing package then fail naming it.
#
#   openssl          the TLS and signed-card tests make their keys and test CA with it
#   systemd          systemd-analyze reads the units `legate service` writes with systemd's own parser
#   chromium         the tap's inspector page is tested in a real headless Chromium...
#   chromium-driver  ...driven through its chromedriver
#
# As root it runs apt-get itself; otherwise it uses sudo when sudo needs no password (sudo -n);
# otherwise it fails at once, naming the packages and the command that installs them.
# cli's TestPrerequisitesTest runs this script against stand-in commands, one case per way above.
set -euo pipefail

# The Debian packages whose commands are not on the PATH, as one line. (No arrays: macOS's bash 3.2
# runs this too, and stops at the missing systemd-analyze there, naming it.)
missing_packages() {
  local m=""
  command -v openssl >/dev/null 2>&1 || m="$m openssl"
  command -v systemd-analyze >/dev/null 2>&1 || m="$m systemd"
  command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
    || command -v google-chrome >/dev/null 2>&1 || m="$m chromium"
  command -v chromedriver >/dev/null 2>&1 || m="$m chromium-driver"
  echo "${m# }"
}

missing=$(missing_packages)
if [ -z "$missing" ]; then
  exit 0
fi

skip="or build without them: ./mvnw verify -Dlegate.prerequisites.skip (the tests that need them then fail)."
as_root=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
    as_root="sudo -n"
  else
    echo "legate tests: missing system packages: $missing, and neither root nor sudo without a password to install them." >&2
    echo "  Install them (sudo apt-get install $missing), then run the build again;" >&2
    echo "  $skip" >&2
    exit 1
  fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "legate tests: missing system packages: $missing (Debian names); no apt-get here to install them." >&2
  echo "  Install their equivalents with this system's package manager, then run the build again;" >&2
  echo "  $skip" >&2
  exit 1
fi

echo "legate tests: installing $missing with ${as_root:+$as_root }apt-get (skip with -Dlegate.prerequisites.skip)"
# $as_root and $missing unquoted on purpose: words, and none has a space or a glob character.
# DEBIAN_FRONTEND on env's command line: sudo resets the environment, so an export would not reach
# apt-get, whose package scripts could then stop at a question.
# shellcheck disable=SC2086
if ! $as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
    || ! $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null; then
  echo "legate tests: apt-get could not install $missing (its message is above)." >&2
  echo "  Install them, then run the build again; $skip" >&2
  exit 1
fi
# A package of that name may install no such command (Ubuntu's chromium only points at a snap).
still=$(missing_packages)
if [ -n "$still" ]; then
  echo "legate tests: apt-get installed $missing, yet the commands of $still are still not on the PATH." >&2
  echo "  Install them another way, then run the build again; $skip" >&2
  exit 1
fi
