-- wrk script for A2A v1.0 JSON-RPC over HTTP (bench/README.md).
--
--   wrk ... -s bench/a2a.lua http://127.0.0.1:PORT/ -- send <run-tag>
--   wrk ... -s bench/a2a.lua http://127.0.0.1:PORT/ -- get <run-tag> <task-id>
--
-- send: every request is a blocking SendMessage with a messageId of its own (tag-thread-counter),
--       so no server can answer from a cache or reject a duplicate.
-- get:  every request is GetTask on one known task id.
-- Every response is checked: HTTP 200 and a body holding the expected result (a COMPLETED task with
-- Revisor's exact statistics for the text sent, or the task asked for). A response that fails the check
-- is counted in "failures", so a fast wrong answer never passes unnoticed; bench/run marks such a run
-- invalid. done() prints one line "BENCH_JSON {...}" that bench/Bench.java reads.

local TEXT = "The quick brown fox. It jumps!"
local EXPECT_SEND = "Words: 6, characters: 30, sentences: 2."
local COMPLETED = "TASK_STATE_COMPLETED"

local threads = {}
local next_thread = 0

function setup(thread)
  next_thread = next_thread + 1
  thread:set("tid", next_thread)
  table.insert(threads, thread)
end

local mode, tag, task_id
local counter = 0
-- globals, not locals: done() reads them from each thread with thread:get()
checked = 0
failures = 0
first_failure = nil
local headers = { ["Content-Type"] = "application/json", ["A2A-Version"] = "1.0" }

function init(args)
  mode = args[1] or "send"
  tag = args[2] or tostring(os.time())
  task_id = args[3]
  if mode == "get" and (task_id == nil or task_id == "") then
    error("a2a.lua: mode get needs a task id")
  end
  if mode ~= "send" and mode ~= "get" then
    error("a2a.lua: unknown mode " .. mode)
  end
end

function request()
  counter = counter + 1
  local body
  if mode == "send" then
    body = '{"jsonrpc":"2.0","id":' .. counter .. ',"method":"SendMessage","params":{"message":{"messageId":"'
      .. tag .. '-' .. tid .. '-' .. counter .. '","role":"ROLE_USER","parts":[{"text":"' .. TEXT .. '"}]}}}'
  else
    body = '{"jsonrpc":"2.0","id":' .. counter .. ',"method":"GetTask","params":{"id":"' .. task_id .. '"}}'
  end
  return wrk.format("POST", nil, headers, body)
end

local function body_ok(body)
  if body == nil or body:find('"error"', 1, true) or not body:find('"result"', 1, true)
      or not body:find(COMPLETED, 1, true) then
    return false
  end
  if mode == "send" then
    return body:find(EXPECT_SEND, 1, true) ~= nil
  end
  return body:find('"id":"' .. task_id .. '"', 1, true) ~= nil
end

function response(status, hdrs, body)
  checked = checked + 1
  if status ~= 200 or not body_ok(body) then
    failures = failures + 1
    if first_failure == nil then
      first_failure = "HTTP " .. status .. ": " .. string.sub(body or "", 1, 200)
    end
  end
end

local function json_string(s)
  s = s:gsub('\\', '\\\\'):gsub('"', '\\"'):gsub('[%c]', ' ')
  return '"' .. s .. '"'
end

function done(summary, latency, requests)
  local total_checked, total_failures, sample = 0, 0, nil
  for _, t in ipairs(threads) do
    total_checked = total_checked + (t:get("checked") or 0)
    total_failures = total_failures + (t:get("failures") or 0)
    sample = sample or t:get("first_failure")
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"duration_us":%d,"bytes":%d,"checked":%d,"failures":%d,'
      .. '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},'
      .. '"latency_us":{"min":%d,"mean":%.1f,"p50":%d,"p90":%d,"p99":%d,"p999":%d,"max":%d},"first_failure":%s}\n',
    summary.requests, summary.duration, summary.bytes, total_checked, total_failures,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.min, latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency:percentile(99.9), latency.max, sample and json_string(sample) or "null"))
end
