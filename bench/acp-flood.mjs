// A fake ACP agent for the bridge benchmark (bench/README.md, workload 7): on every session/prompt it
// streams FLOOD_CHUNKS (default 10000) agent_message_chunk updates of one token each ("w<i>," with i
// counting from 0, so a client can tell exactly which chunk got lost or reordered), as fast as the
// stdout pipe takes them, then answers the prompt with stopReason end_turn.
//
// ACP is JSON-RPC 2.0, one object per line, over stdin/stdout (see the repository's ACP notes). This file
// uses no SDK, so its own cost per chunk is one small write.
//
// FLOOD_REPORT, when set, names a file that receives one JSON object after each prompt:
//   {"chunks":N,"firstChunkMonotonicUs":...,"lastChunkMonotonicUs":...}
// The timestamps are microseconds of the machine's monotonic clock (process.hrtime, CLOCK_MONOTONIC on
// Linux), the clock Java's System.nanoTime() reads in the process that reads the A2A stream. Not the wall
// clock: performance.timeOrigin + performance.now() ran 25-80 µs ahead of it in a quiet process, more
// when the start of the process was preempted, and the wall clock itself may be adjusted mid-run.

import { writeFileSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';

const CHUNKS = Number.parseInt(process.env.FLOOD_CHUNKS ?? '10000', 10);
const REPORT = process.env.FLOOD_REPORT ?? '';

const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

// Synchronous writes to fd 1: the order of lines is the order of calls, and a chunk counts as sent only
// once the pipe has taken it.
function send(obj) {
  const line = JSON.stringify(obj) + '\n';
  let off = 0;
  const buf = Buffer.from(line, 'utf8');
  while (off < buf.length) {
    try {
      off += writeSync(1, buf, off);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
  }
}

const reply = (id, result) => send({ jsonrpc: '2.0', id, result });

let sessions = 0;

function prompt(id, params) {
  const sessionId = params.sessionId;
  // Taken just before the first chunk is written, so never later than the moment the bridge can read it;
  // the handshake (initialize, session/new) and the prompt's arrival are all before it.
  const first = monotonicUs();
  for (let i = 0; i < CHUNKS; i++) {
    send({
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `w${i},` } } },
    });
  }
  const last = monotonicUs();
  if (REPORT) {
    writeFileSync(REPORT, JSON.stringify({ chunks: CHUNKS, firstChunkMonotonicUs: first, lastChunkMonotonicUs: last }) + '\n');
  }
  reply(id, { stopReason: 'end_turn' });
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (line.trim() === '') return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    process.stderr.write(`acp-flood: not JSON: ${line.slice(0, 200)}\n`);
    return;
  }
  if (msg.method === undefined) return; // a response to something we never ask
  const { id, method, params = {} } = msg;
  switch (method) {
    case 'initialize':
      reply(id, {
        protocolVersion: 1,
        agentCapabilities: { loadSession: false, promptCapabilities: { image: false, audio: false, embeddedContext: false } },
        authMethods: [],
        agentInfo: { name: 'acp-flood', title: 'ACP flood (Legate benchmark)', version: '1.0.0' },
      });
      break;
    case 'session/new':
      sessions += 1;
      reply(id, { sessionId: `flood-${process.pid}-${sessions}` });
      break;
    case 'session/set_mode':
    case 'session/set_config_option':
      reply(id, {});
      break;
    case 'session/prompt':
      prompt(id, params);
      break;
    case 'session/cancel':
      break; // a notification; the flood is synchronous, so there is nothing left to stop
    default:
      if (id !== undefined) {
        send({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
      }
  }
});
rl.on('close', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
