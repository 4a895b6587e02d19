#!/usr/bin/env bash
# raw.sh: the A2A v1.0 protocol with bare hands, five requests a person can read and copy.
#
#   1. Discovery: GET the Agent Card; it names the JSON-RPC endpoint.
#   2. SendMessage WITHOUT the A2A-Version header: the agent reads that as 0.3 and refuses with
#      -32009 (VersionNotSupported). On purpose: every v1.0 request must carry the header.
#   3. SendMessage with "A2A-Version: 1.0": blocking is the default, so the whole Task comes back.
#   4. SendStreamingMessage with curl -N: the SSE frames print as they arrive.
#   5. GetTask on the task of step 3: the task outlives the call that created it.
#
# AGENT picks the agent (default http://localhost:41241); through the tap: AGENT=http://localhost:41242.
# BINDING=REST (or HTTP+JSON) walks the same five steps over the HTTP+JSON binding instead: the card's
# HTTP+JSON URL, POST .../message:send and .../message:stream with the request as the body, GET
# .../tasks/{id}, errors as google.rpc.Status (A2A §11).
# TOKEN, when set, is sent as "Authorization: Bearer $TOKEN" on steps 2-5 (the card needs none);
# the commands shown name the variable, never the token.
# Needs only bash and curl. Pretty-prints JSON with jq, else python3, when one is installed.
# Exits non-zero, naming the step, when a step does not show what it claims.
set -u

AGENT=${AGENT:-http://localhost:41241}
AGENT=${AGENT%/}
BINDING=${BINDING:-JSONRPC}
case "${BINDING^^}" in
  JSONRPC | JSON-RPC) REST='' ;;
  REST | HTTP+JSON) REST=1 ;;
  *) echo "raw.sh: BINDING must be JSONRPC or REST, got ${BINDING}" >&2; exit 2 ;;
esac
TEXT="The quick brown fox jumps over the lazy dog. It was not amused!"
AUTH=() AUTH_SHOWN=''
if [ -n "${TOKEN-}" ]; then
  AUTH=(-H "Authorization: Bearer $TOKEN")
  AUTH_SHOWN=' -H "Authorization: Bearer $TOKEN"'
fi

if [ -t 1 ] && [ -z "${NO_COLOR-}" ]; then
  B=$'\e[1m' D=$'\e[2m' G=$'\e[32m' R=$'\e[31m' Z=$'\e[0m'
else
  B='' D='' G='' R='' Z=''
fi
JQ='' PY=''
command -v jq >/dev/null 2>&1 && JQ=jq
[ -z "$JQ" ] && command -v python3 >/dev/null 2>&1 && PY=python3
if ! command -v curl >/dev/null 2>&1; then
  echo "raw.sh: curl is required and was not found on PATH" >&2
  exit 2
fi

step() { printf '\n%s== %s%s\n' "$B" "$*" "$Z"; }
ok() { printf '%s✓ %s%s\n' "$G" "$*" "$Z"; }
fail() { # $1 = step number, $2 = what was expected
  printf '%s✗ step %s: %s%s\n' "$R" "$1" "$2" "$Z"
  echo "raw.sh: step $1 failed: $2 (AGENT=$AGENT)" >&2
  exit 1
}
# The curl command as a person would type it, so any step can be replayed by hand.
show_cmd() { printf '%s$ %s%s\n' "$D" "$*" "$Z"; }

# Prints JSON laid out when a pretty-printer is at hand, else exactly as it came.
show_json() {
  local pretty=''
  if [ -n "$JQ" ]; then
    pretty=$(printf '%s' "$1" | jq . 2>/dev/null)
  elif [ -n "$PY" ]; then
    pretty=$(printf '%s' "$1" | python3 -m json.tool 2>/dev/null)
  fi
  if [ -n "$pretty" ]; then printf '%s\n' "$pretty"; else printf '%s\n' "$1"; fi
}

# Sets STATUS and BODY; returns curl's exit code. Extra curl arguments come first.
request() {
  local out rc
  out=$(curl -sS --max-time 60 -w $'\n%{http_code}' "$@")
  rc=$?
  STATUS=${out##*$'\n'}
  BODY=${out%$'\n'*}
  return $rc
}

# A SendMessage or SendStreamingMessage body; $1 = method, $2 = a suffix for the messageId.
# Over REST the body is the SendMessageRequest itself, and the method is in the path ($1 ignored).
message_body() {
  if [ -n "$REST" ]; then
    printf '{"message":{"messageId":"raw-%s-%s-%s","role":"ROLE_USER","parts":[{"text":"%s"}]}}' \
      "$$" "$RANDOM" "$2" "$TEXT"
    return
  fi
  printf '{"jsonrpc":"2.0","id":"raw-%s","method":"%s","params":{"message":{"messageId":"raw-%s-%s-%s","role":"ROLE_USER","parts":[{"text":"%s"}]}}}' \
    "$2" "$1" "$$" "$RANDOM" "$2" "$TEXT"
}

# ProtoJSON puts id first in a Task (field 1), so a pattern finds it without a JSON parser.
S='[[:space:]]*'

# ---------------------------------------------------------------------------------------------
step "1. Discovery: GET $AGENT/.well-known/agent-card.json"
show_cmd "curl -sS $AGENT/.well-known/agent-card.json"
request "$AGENT/.well-known/agent-card.json" || fail 1 "no answer from $AGENT (is the agent running? set AGENT)"
echo "HTTP $STATUS"
show_json "$BODY"
[ "$STATUS" = 200 ] || fail 1 "the card should come back with HTTP 200, got $STATUS"
# The first JSONRPC interface of protocolVersion 1.0 (a Legate card also lists v0.3's, at v0.3/).
RPC_URL=
if [ -n "$JQ" ]; then
  RPC_URL=$(printf '%s' "$BODY" | jq -r '[.supportedInterfaces[]
    | select(.protocolBinding == "JSONRPC" and .protocolVersion == "1.0")][0].url // empty')
else
  ifaces=${BODY#*\"supportedInterfaces\"}
  ifaces=${ifaces%%]*}
  while [[ $ifaces =~ \{([^}]*)\} ]]; do
    obj=${BASH_REMATCH[1]}
    ifaces=${ifaces#*"${BASH_REMATCH[0]}"}
    if [[ $obj =~ \"protocolBinding\"$S:$S\"JSONRPC\" && $obj =~ \"protocolVersion\"$S:$S\"1\.0\" \
          && $obj =~ \"url\"$S:$S\"([^\"]+)\" ]]; then
      RPC_URL=${BASH_REMATCH[1]}
      break
    fi
  done
fi
if [ -n "$REST" ]; then
  # ProtoJSON writes an interface's url before its protocolBinding (fields 1 and 2).
  re="\\{$S\"url\"$S:$S\"([^\"]+)\"$S,$S\"protocolBinding\"$S:$S\"HTTP\\+JSON\""
  [[ $BODY =~ $re ]] || fail 1 "the card should list an HTTP+JSON interface"
  RPC_URL=${BASH_REMATCH[1]%/}
  if [ -n "$JQ" ]; then
    RPC_URL=$(printf '%s' "$BODY" | jq -r '[.supportedInterfaces[] | select(.protocolBinding == "HTTP+JSON")][0].url // empty')
    RPC_URL=${RPC_URL%/}
  fi
  SEND_URL=$RPC_URL/message:send STREAM_URL=$RPC_URL/message:stream
  ok "the card sends REST clients to $RPC_URL (its paths: /message:send, /message:stream, /tasks/{id}, …)"
else
  [ -n "$RPC_URL" ] || fail 1 "the card should list a JSONRPC interface of protocolVersion 1.0"
  SEND_URL=$RPC_URL STREAM_URL=$RPC_URL
  ok "the card sends JSON-RPC clients to $RPC_URL"
fi

# ---------------------------------------------------------------------------------------------
step "2. SendMessage without the A2A-Version header (refused on purpose)"
body=$(message_body SendMessage 2)
show_cmd "curl -sS$AUTH_SHOWN -H 'Content-Type: application/json' -d '$body' $SEND_URL"
request ${AUTH[@]+"${AUTH[@]}"} -H 'Content-Type: application/json' --data-binary "$body" "$SEND_URL" \
  || fail 2 "no answer from $SEND_URL"
echo "HTTP $STATUS"
show_json "$BODY"
if [ -n "$REST" ]; then
  re="\"reason\"$S:$S\"VERSION_NOT_SUPPORTED\""
  [[ $STATUS = 400 && $BODY =~ $re ]] || fail 2 "without A2A-Version the agent should answer HTTP 400 with reason VERSION_NOT_SUPPORTED"
  ok "400 VERSION_NOT_SUPPORTED: no A2A-Version header means 0.3, which this agent does not speak"
else
  re="\"code\"$S:$S-32009"
  [[ $BODY =~ $re ]] || fail 2 "without A2A-Version the agent should answer JSON-RPC error -32009 (VersionNotSupported)"
  ok "-32009: no A2A-Version header means 0.3, which this agent does not speak"
fi

# ---------------------------------------------------------------------------------------------
step "3. SendMessage with A2A-Version: 1.0 (blocking: the whole Task comes back)"
body=$(message_body SendMessage 3)
show_cmd "curl -sS$AUTH_SHOWN -H 'Content-Type: application/json' -H 'A2A-Version: 1.0' -d '$body' $SEND_URL"
request ${AUTH[@]+"${AUTH[@]}"} -H 'Content-Type: application/json' -H 'A2A-Version: 1.0' --data-binary "$body" "$SEND_URL" \
  || fail 3 "no answer from $SEND_URL"
echo "HTTP $STATUS"
show_json "$BODY"
re="\"result\"$S:$S\{$S\"task\"$S:$S\{$S\"id\"$S:$S\"([^\"]+)\""
[ -n "$REST" ] && re="^$S\{$S\"task\"$S:$S\{$S\"id\"$S:$S\"([^\"]+)\""
[[ $BODY =~ $re ]] || fail 3 "SendMessage should answer with a Task (task, in result on JSON-RPC)"
TASK_ID=${BASH_REMATCH[1]}
re="\"state\"$S:$S\"TASK_STATE_COMPLETED\""
[[ $BODY =~ $re ]] || fail 3 "a blocking SendMessage should return the Task once it is TASK_STATE_COMPLETED"
re="\"artifacts\"$S:$S\["
[[ $BODY =~ $re ]] || fail 3 "the completed Task should carry its artifacts"
ok "task id: $TASK_ID, TASK_STATE_COMPLETED, with its artifacts"

# ---------------------------------------------------------------------------------------------
step "4. SendStreamingMessage with curl -N (frames as they come)"
body=$(message_body SendStreamingMessage 4)
show_cmd "curl -sS -N$AUTH_SHOWN -H 'Content-Type: application/json' -H 'A2A-Version: 1.0' -d '$body' $STREAM_URL"
frames=0 first='' last='' data='' other=''
started=${EPOCHREALTIME:-}
while IFS= read -r line || [ -n "$line" ]; do
  line=${line%$'\r'}
  case $line in
    data:*)
      chunk=${line#data:}
      chunk=${chunk# }
      if [ -n "$data" ]; then data+=$'\n'"$chunk"; else data=$chunk; fi
      ;;
    event:* | id:* | retry:*) printf '%s%s%s\n' "$D" "$line" "$Z" ;;
    :*) printf '%s%s  (comment)%s\n' "$D" "$line" "$Z" ;;
    '')
      if [ -n "$data" ]; then
        frames=$((frames + 1))
        when=''
        if [ -n "$started" ]; then
          now=${EPOCHREALTIME}
          ms=$(( (${now/[.,]/} - ${started/[.,]/}) / 1000 ))
          when=$(printf ' +%d.%03d s' $((ms / 1000)) $((ms % 1000)))
        fi
        printf '%s-- frame %d%s%s\n' "$B" "$frames" "$when" "$Z"
        printf 'data: '
        show_json "$data"
        [ "$frames" = 1 ] && first=$data
        last=$data
        data=''
      fi
      ;;
    *)
      printf '%s\n' "$line"
      other+=$line
      ;;
  esac
done < <(curl -sS -N --max-time 120 ${AUTH[@]+"${AUTH[@]}"} -H 'Content-Type: application/json' -H 'A2A-Version: 1.0' \
  -H 'Accept: text/event-stream' --data-binary "$body" "$STREAM_URL" 2>&1)
[ "$frames" -ge 2 ] || fail 4 "expected a stream of SSE frames, got $frames frame(s)${other:+; the agent said: $other}"
re="\"result\"$S:$S\{$S\"task\"$S:"
[ -n "$REST" ] && re="^$S\{$S\"task\"$S:"
[[ $first =~ $re ]] || fail 4 "the first frame of a task stream should be the Task"
re="\"state\"$S:$S\"TASK_STATE_COMPLETED\""
[[ $last =~ $re ]] || fail 4 "the last frame should move the task to TASK_STATE_COMPLETED"
ok "$frames frames: the Task first, TASK_STATE_COMPLETED last"

# ---------------------------------------------------------------------------------------------
step "5. GetTask $TASK_ID (the task of step 3 outlived its call)"
if [ -n "$REST" ]; then
  show_cmd "curl -sS$AUTH_SHOWN -H 'A2A-Version: 1.0' '$RPC_URL/tasks/$TASK_ID?historyLength=1'"
  request ${AUTH[@]+"${AUTH[@]}"} -H 'A2A-Version: 1.0' "$RPC_URL/tasks/$TASK_ID?historyLength=1" \
    || fail 5 "no answer from $RPC_URL/tasks/$TASK_ID"
  re="^$S\{$S\"id\"$S:$S\"$TASK_ID\""
else
  body=$(printf '{"jsonrpc":"2.0","id":"raw-5","method":"GetTask","params":{"id":"%s","historyLength":1}}' "$TASK_ID")
  show_cmd "curl -sS$AUTH_SHOWN -H 'Content-Type: application/json' -H 'A2A-Version: 1.0' -d '$body' $RPC_URL"
  request ${AUTH[@]+"${AUTH[@]}"} -H 'Content-Type: application/json' -H 'A2A-Version: 1.0' --data-binary "$body" "$RPC_URL" \
    || fail 5 "no answer from $RPC_URL"
  re="\"result\"$S:$S\{$S\"id\"$S:$S\"$TASK_ID\""
fi
echo "HTTP $STATUS"
show_json "$BODY"
[[ $BODY =~ $re ]] || fail 5 "GetTask should return the task $TASK_ID (GetTask's result is a bare Task)"
re="\"state\"$S:$S\"TASK_STATE_COMPLETED\""
[[ $BODY =~ $re ]] || fail 5 "the stored task should still be TASK_STATE_COMPLETED"
ok "GetTask returned task $TASK_ID, still TASK_STATE_COMPLETED"

printf '\n%sraw.sh: all 5 steps showed what they claim against %s%s%s\n' "$G" "$AGENT" "${REST:+ over HTTP+JSON}" "$Z"
