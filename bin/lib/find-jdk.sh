# Sourced (POSIX sh) by mvnw, bin/legate and .ci/run: exports JAVA_HOME naming a JDK >= 21.
# Order: JAVA_HOME, then the java on PATH, then the usual JVM folders. Fails with a message that
# says what was looked at and what to install, because a JDK 17 default is common and the build
# would otherwise die later with a confusing "release 21 not supported".

legate_jdk_major() {
  # prints the feature version of the java binary given, or nothing. The JDK's release file
  # answers first: starting a JVM only to ask it costs about 100 ms, and a search asks each JDK
  # it finds, so bin/legate spent over half a second here before its own JVM started.
  legate_rel="$(dirname -- "$(dirname -- "$1")")/release"
  if [ -f "$legate_rel" ]; then
    legate_rv=$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$legate_rel" | head -n 1)
    case $legate_rv in 1.*) legate_rv=${legate_rv#1.} ;; esac
    legate_rv=${legate_rv%%[!0-9]*}
    if [ -n "$legate_rv" ]; then echo "$legate_rv"; return 0; fi
  fi
  "$1" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

legate_jdk_ok() {
  # $1 = a JDK home; ok when it has java and javac of version >= 21
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 1
  legate_v=$(legate_jdk_major "$1/bin/java")
  [ -n "$legate_v" ] && [ "$legate_v" -ge 21 ]
}

legate_find_jdk() {
  legate_seen=""
  if [ -n "${JAVA_HOME-}" ]; then
    if legate_jdk_ok "$JAVA_HOME"; then export JAVA_HOME; return 0; fi
    legate_seen="$legate_seen JAVA_HOME=$JAVA_HOME (java ${legate_v:-missing});"
  fi
  legate_java=$(command -v java 2>/dev/null || true)
  if [ -n "$legate_java" ]; then
    legate_home=$(dirname "$(dirname "$(readlink -f "$legate_java")")")
    if legate_jdk_ok "$legate_home"; then JAVA_HOME=$legate_home; export JAVA_HOME; return 0; fi
    legate_seen="$legate_seen java on PATH (version ${legate_v:-unknown});"
  fi
  legate_best=""; legate_best_v=0
  # the caller may run with globbing off (mvnw uses set -f); the folder scan needs it
  case $- in *f*) legate_noglob=1; set +f ;; *) legate_noglob=0 ;; esac
  for legate_dir in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* /Library/Java/JavaVirtualMachines/*/Contents/Home "${HOME:-/nonexistent}"/.sdkman/candidates/java/*; do
    [ -d "$legate_dir" ] || continue
    if legate_jdk_ok "$legate_dir" && [ "$legate_v" -gt "$legate_best_v" ]; then
      legate_best=$legate_dir; legate_best_v=$legate_v
    fi
  done
  [ "$legate_noglob" = 1 ] && set -f
  if [ -n "$legate_best" ]; then JAVA_HOME=$legate_best; export JAVA_HOME; return 0; fi
  echo "legate: no JDK 21 or newer found.$legate_seen" >&2
  echo "legate: install a JDK >= 21 (for example Debian's openjdk-21-jdk or Temurin 21) and set JAVA_HOME to it." >&2
  return 1
}
