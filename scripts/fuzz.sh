#!/usr/bin/env bash
# fuzz.sh: fuzzes Legate's readers of untrusted bytes with Jazzer, one fuzz test after another
# (docs/fuzzing.md). `./mvnw verify` only replays each test's committed inputs; this runs them
# as fuzzers.
#
#   scripts/fuzz.sh [DURATION] [NAME...]
#
# DURATION is per fuzz test, as Jazzer reads it ("90s", "10m", "1h"; default 2m). NAMEs pick fuzz
# test classes from the list below (default: all of them). Each one runs as
#   JAZZER_FUZZ=1 JAZZER_MAX_DURATION=DURATION ./mvnw -pl MODULE -am test -Dtest='CLASS#METHOD'
# Its corpus grows in MODULE/.cifuzz-corpus/ (not committed). An input that breaks a property is
# written as MODULE/src/test/resources/<package>/<Class>Inputs/<method>/crash-<sha1>, the test
# fails, and the script goes on with the next one and exits 1 at the end: fix the code, keep the
# file (renamed to say what it is) as a regression input, and `./mvnw verify` replays it from then on.
set -uo pipefail
cd "$(dirname "$0")/.."

TARGETS=(
  "wire SseParserFuzzTest#anyStreamParsesToEventsThatSurviveReframing"
  "wire JsonRpcResponseFuzzTest#anyBodyIsReadAsAResponseOrRefusedWithItsCode"
  "a2a-model ProtoJsonReaderFuzzTest#anyJsonIsReadOrRefusedAsInvalidParams"
  "a2a-model GrpcMessageFuzzTest#anyBytesParseOrAreRefusedAsInvalidProtobuf"
  "a2a-server JsonRpcRequestFuzzTest#anyBodyIsReadOrRefusedWithItsJsonRpcCode"
  "a2a-server WebhookGuardFuzzTest#anyUrlIsPassedOrRefusedByARule"
  "a2a-server TokensFileFuzzTest#anyFileIsReadOrRefusedWithoutItsSecrets"
  "acp-bridge PolicyFileFuzzTest#anyFileIsAPolicyOrAPolicyFileError"
  "tap HttpMessageFuzzTest#anyConnectionIsReadOrRefusedAsMalformed"
  "tap SessionFileFuzzTest#anyFileIsReadOrRefusedWithAReason"
)

duration=${1:-2m}
[ $# -gt 0 ] && shift
failed=()
for entry in "${TARGETS[@]}"; do
  module=${entry%% *}
  target=${entry#* }
  class=${target%%#*}
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$class"; then
    continue
  fi
  echo "fuzz.sh: $class for $duration ($module)"
  if ! JAZZER_FUZZ=1 JAZZER_MAX_DURATION="$duration" ./mvnw -B -ntp -q -pl "$module" -am test \
      -Dtest="$target" -Dsurefire.failIfNoSpecifiedTests=false; then
    failed+=("$class")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: findings (or a failed build) in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz.sh: no findings"
