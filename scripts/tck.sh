#!/usr/bin/env bash
# tck.sh: runs the official A2A TCK (a2aproject/a2a-tck, branch 1.0-dev) against Legate.
#
#   scripts/tck.sh TCK_CHECKOUT
#
# 1. Checks that Python and the TCK's packages are there, and says what to install when not.
# 2. Starts `bin/legate agent --agent tck` (the TCK's system under test) on a free loopback port,
#    with the in-memory task store and every binding this build serves (A2A_BINDINGS, when set,
#    chooses instead), in an empty working directory (no .env applies), and waits for its card.
# 3. Runs the TCK's compatibility suite (tests/compatibility, as its run_tck.py does) once for
#    each binding the card lists: JSONRPC, HTTP+JSON, GRPC. A binding the card does not list is
#    skipped, saying so. Each run prints the TCK's own summary ("A2A TCK Compatibility Report").
# 4. Stops Legate by its PID, prints one line per binding and exits 0 only if no run failed.
#
# Needs: bash, Python >= 3.11 with the TCK's packages: pytest >= 8, pytest-asyncio, httpx,
# grpcio, protobuf >= 6.30.2 (the TCK's checked-in gRPC stubs were generated with 6.30.2),
# googleapis-common-protos and jsonschema; pytest-html adds the TCK's HTML report when present.
# Debian 12's python3-* packages are too old or missing for this (docs/conformance.md), so use pip:
#   python3 -m venv ../tck-venv
#   ../tck-venv/bin/pip install 'pytest>=8' pytest-asyncio httpx grpcio 'protobuf>=6.30.2' \
#       googleapis-common-protos jsonschema
#   TCK_PYTHON=../tck-venv/bin/python scripts/tck.sh ../a2a-tck
#
# TCK_PYTHON: the Python that has those packages (default python3).
# TCK_REPORTS: where the TCK's reports go, one folder per binding (default target/tck-reports).
# TCK_STREAMING_TIMEOUT: the TCK's own setting (seconds, default 2.0), given to both sides.
# TCK_ARGS: more arguments for pytest, e.g. TCK_ARGS='-k artifact -v'.
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -ne 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
  sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
tck=$(cd "$1" 2>/dev/null && pwd) || { echo "tck.sh: no directory $1" >&2; exit 2; }
if [ ! -f "$tck/run_tck.py" ] || [ ! -d "$tck/tests/compatibility" ]; then
  echo "tck.sh: $tck is not a checkout of a2aproject/a2a-tck 1.0-dev (no run_tck.py or tests/compatibility)" >&2
  exit 2
fi
python=${TCK_PYTHON:-python3}
reports=${TCK_REPORTS:-$root/target/tck-reports}
export TCK_STREAMING_TIMEOUT=${TCK_STREAMING_TIMEOUT:-2.0}

# ------------------------------------------------------------------ 1. what the TCK needs
if ! command -v "$python" >/dev/null 2>&1; then
  echo "tck.sh: no Python at '$python'; set TCK_PYTHON to a Python >= 3.11 (see the top of this script)" >&2
  exit 2
fi
missing=$(cd "$tck" && "$python" - <<'EOF' 2>&1
import importlib, sys
if sys.version_info < (3, 11):
    print(f"Python >= 3.11 (this is {sys.version.split()[0]})")
    sys.exit(0)
for module, package in [("pytest", "pytest>=8"), ("pytest_asyncio", "pytest-asyncio"), ("httpx", "httpx"),
                        ("grpc", "grpcio"), ("google.protobuf", "protobuf>=6.30.2"),
                        ("google.rpc.error_details_pb2", "googleapis-common-protos"), ("jsonschema", "jsonschema")]:
    try:
        importlib.import_module(module)
    except Exception:
        print(package)
try:
    import pytest
    if int(pytest.__version__.split(".")[0]) < 8:
        print(f"pytest>=8 (this is pytest {pytest.__version__})")
except Exception:
    pass
try:
    # The TCK's gRPC stubs refuse a protobuf runtime older than the one that generated them.
    importlib.import_module("specification.generated.a2a_pb2")
except Exception as e:
    if "google" in sys.modules:
        print(f"protobuf>=6.30.2 (the TCK's stubs do not load: {str(e).splitlines()[0][:120]})")
EOF
)
if [ -n "$missing" ]; then
  echo "tck.sh: $python lacks what the TCK needs:" >&2
  printf '%s\n' "$missing" | sort -u | sed 's/^/  /' >&2
  echo "Install them with pip in a virtual environment (the top of this script shows how)." >&2
  exit 2
fi
html=()
if (cd "$tck" && "$python" -c 'import pytest_html' 2>/dev/null); then
  html=(--self-contained-html)
fi
commit=$(git -C "$tck" rev-parse HEAD 2>/dev/null || echo "unknown (not a git checkout)")
echo "TCK: $tck at commit $commit"

# ------------------------------------------------------------------ 2. Legate as the SUT
work=$(mktemp -d)
pid=
stop() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  fi
  rm -rf "$work"
}
trap stop EXIT
trap 'exit 130' INT TERM

# A fresh in-memory store: a run never meets the tasks of another, nor a DATA_DIR in use. An empty
# working directory: a .env where the script was started (credentials, TLS) does not apply.
# PUSH_ALLOW_HOSTS: the TCK's push tests register webhooks at https://example.com/… (which need
# not resolve: no delivery to them is checked) and run their receiver on localhost over plain http;
# Legate's SSRF guard refuses both unless the operator allows them (README "Push notifications").
(cd "$work" && AGENT_KIND=tck HOST=127.0.0.1 PORT=0 TASK_STORE=memory STEP_DELAY_MS=0 \
  PUSH_ALLOW_HOSTS=localhost,127.0.0.1,example.com \
  exec "$root/bin/legate" agent >"$work/legate.out" 2>"$work/legate.err") &
pid=$!
card_url=
# The first start may build the jar (a minute or more), so the wait is long, but it ends with the process.
for _ in $(seq 1 600); do
  card_url=$(sed -n 's/^Agent Card: //p' "$work/legate.out" 2>/dev/null | head -n 1)
  [ -n "$card_url" ] && break
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "tck.sh: legate agent --agent tck stopped before it served its card:" >&2
    cat "$work/legate.out" "$work/legate.err" >&2
    pid=
    exit 1
  fi
  sleep 1
done
if [ -z "$card_url" ]; then
  echo "tck.sh: legate agent --agent tck printed no Agent Card line within 600 s" >&2
  cat "$work/legate.err" >&2
  exit 1
fi
head -n 1 "$work/legate.out"
sut_host=${card_url%/.well-known/agent-card.json}

# The bindings the card lists, the first interface of each (the TCK takes the first too).
listed=$("$python" - "$card_url" <<'EOF'
import json, sys, urllib.request
request = urllib.request.Request(sys.argv[1], headers={"A2A-Version": "1.0"})
card = json.load(urllib.request.urlopen(request, timeout=10))
seen = {}
for i in card.get("supportedInterfaces", []):
    seen.setdefault(i.get("protocolBinding"), f'{i.get("url")} (A2A {i.get("protocolVersion")})')
for binding, where in seen.items():
    print(f"{binding} {where}")
EOF
) || { echo "tck.sh: could not read the card at $card_url" >&2; exit 1; }
echo "The card lists:"
printf '  %s\n' "$listed"

# ------------------------------------------------------------------ 3. the suite, per binding
declare -A outcome
failed=0
for binding in JSONRPC HTTP+JSON GRPC; do
  case $binding in
    JSONRPC) transport=jsonrpc ;;
    HTTP+JSON) transport=http_json ;;
    GRPC) transport=grpc ;;
  esac
  if ! printf '%s\n' "$listed" | grep -q "^$binding "; then
    outcome[$binding]="SKIPPED: the card does not list $binding, so this build does not serve it"
    echo
    echo "=== $binding: skipped, the card does not list it"
    continue
  fi
  if [ "$binding" = JSONRPC ] && ! printf '%s\n' "$listed" | grep -q '^JSONRPC .*(A2A 1.0)$'; then
    echo "tck.sh: the card's first JSONRPC interface is not A2A 1.0; put JSONRPC before JSONRPC-0.3 in A2A_BINDINGS" >&2
  fi
  out="$reports/$transport"
  mkdir -p "$out"
  echo
  echo "=== $binding: the TCK's compatibility suite (reports in $out)"
  html_args=()
  [ ${#html[@]} -gt 0 ] && html_args=(--html="$out/tck_report.html" "${html[@]}")
  # The command run_tck.py builds, less its HTML report when pytest-html is missing.
  # shellcheck disable=SC2086
  (cd "$tck" && "$python" -m pytest tests/compatibility/ --sut-host="$sut_host" --transport="$transport" \
      --tb=short -q -p no:cacheprovider --compatibility-report="$out/compatibility" \
      --junitxml="$out/junitreport.xml" "${html_args[@]}" ${TCK_ARGS:-}) 2>&1 | tee "$out/output.txt"
  rc=${PIPESTATUS[0]}
  counts=$(grep -E '^[0-9]+ (passed|failed|skipped|error)|^=+ .*(passed|failed|skipped).* =+$' "$out/output.txt" \
    | tail -n 1 | tr -d '=' | sed 's/^ *//; s/ *$//')
  overall=$(sed -n 's/^OVERALL COMPATIBILITY: //p' "$out/output.txt" | tail -n 1)
  outcome[$binding]="${counts:-no pytest summary} (TCK overall compatibility ${overall:-not printed}), exit $rc"
  [ "$rc" -ne 0 ] && failed=1
done

if ! kill -0 "$pid" 2>/dev/null; then
  echo "tck.sh: Legate stopped during the run:" >&2
  cat "$work/legate.err" >&2
  failed=1
fi

# ------------------------------------------------------------------ 4. per binding
echo
echo "TCK $commit against Legate ($sut_host):"
for binding in JSONRPC HTTP+JSON GRPC; do
  echo "  $binding: ${outcome[$binding]}"
done
exit $failed
