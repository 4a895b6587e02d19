// An ACP agent built only from the official SDK (@agentclientprotocol/sdk 2.4.0, stable v1 API):
// `agent()` with handlers per method, served over newline-delimited JSON on stdin/stdout with
// `ndJsonStream`. It stands in for a coding agent behind `legate bridge`, so the bridge's ACP client
// is checked against the reference implementation of the protocol rather than against our own fake.
//
//   legate bridge --agent-cmd "node interop/acp-agent.mjs" --mode careful
//
// Each prompt's first word picks what it does:
//   write <file> <text>   asks permission (kind edit) for <file>, then writes it with fs/write_text_file
//                         and reads it back with fs/read_text_file (both served by the client)
//   recall                answers with the earlier prompts of this session
//   mode                  answers with the session's current mode
//   slow                  says it is working, then waits for session/cancel and ends "cancelled"
//   twice <a> <b>         asks permission to edit <a>, then (once answered) <b>, and answers with both outcomes
//   env <NAME>            answers with the value of NAME in its environment
//   edit <file>           thinks aloud, then reports an edit of <file> as a diff (it writes nothing)
//   (anything else)       streams "Echo: <prompt>" back in small chunks, with a plan and a tool call
//
// With --load it advertises loadSession: each session's prompts are kept in a file in its cwd, and
// session/load replays them (as user and agent message chunks) and remembers them, so a new process
// of the agent recalls an earlier one's conversation.
//
// stdout carries only protocol messages; anything for people goes to stderr.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { agent, methods, ndJsonStream, RequestError } from '@agentclientprotocol/sdk';

const loads = process.argv.includes('--load');
const kept = (cwd, id) => `${cwd}/.interop-session-${id}.json`;
const sessions = new Map(); // sessionId -> { prompts: string[], mode: string, cancel: AbortController | null, cwd: string }
let nextSession = 0;

const text = (t) => ({ type: 'text', text: t });
const update = (client, sessionId, u) => client.notify(methods.client.session.update, { sessionId, update: u });
const say = (client, sessionId, t) => update(client, sessionId, { sessionUpdate: 'agent_message_chunk', content: text(t) });

function session(id) {
  const s = sessions.get(id);
  if (!s) throw RequestError.resourceNotFound(id);
  return s;
}

// PROTOCOL (ACP fs/*): paths are absolute; a relative name is taken inside the session's cwd.
async function ask(client, sessionId, callId, file) {
  const permission = await client.request(methods.client.session.requestPermission, {
    sessionId,
    toolCall: { toolCallId: callId, title: `Write ${file}`, kind: 'edit', status: 'pending', locations: [{ path: file }] },
    options: [
      { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ],
  });
  return permission.outcome;
}

async function write(client, sessionId, name, content) {
  const file = name.startsWith('/') ? name : `${session(sessionId).cwd}/${name}`;
  const outcome = await ask(client, sessionId, 'w1', file);
  if (outcome.outcome !== 'selected' || outcome.optionId !== 'allow') {
    return `not allowed to write ${name} (${outcome.outcome} ${outcome.optionId ?? ''})`.trim();
  }
  await client.request(methods.client.fs.writeTextFile, { sessionId, path: file, content });
  const read = await client.request(methods.client.fs.readTextFile, { sessionId, path: file });
  return `wrote ${name}: ${read.content}`;
}

const app = agent({ name: 'legate-interop-acp-agent' })
  .onRequest(methods.agent.initialize, () => ({
    protocolVersion: 1,
    agentCapabilities: { loadSession: loads },
    authMethods: [],
    agentInfo: { name: 'legate-interop-acp-agent', title: 'Interop Echo Agent', version: '1.0.0' },
  }))
  .onRequest(methods.agent.session.new, ({ params }) => {
    if (!params.cwd.startsWith('/')) throw RequestError.invalidParams(undefined, 'cwd must be absolute');
    const sessionId = `interop-${process.pid}-${++nextSession}`;
    sessions.set(sessionId, { prompts: [], mode: 'ask', cancel: null, cwd: params.cwd });
    return {
      sessionId,
      modes: {
        currentModeId: 'ask',
        availableModes: [
          { id: 'ask', name: 'Ask' },
          { id: 'careful', name: 'Careful' },
        ],
      },
    };
  })
  .onRequest(methods.agent.session.load, async ({ params, client }) => {
    const file = kept(params.cwd, params.sessionId);
    if (!loads || !existsSync(file)) throw RequestError.resourceNotFound(params.sessionId);
    const prompts = JSON.parse(readFileSync(file, 'utf8'));
    sessions.set(params.sessionId, { prompts, mode: 'ask', cancel: null, cwd: params.cwd });
    // PROTOCOL (ACP session/load): the conversation is replayed as updates before the answer.
    for (const p of prompts) {
      await update(client, params.sessionId, { sessionUpdate: 'user_message_chunk', content: text(p) });
      await say(client, params.sessionId, `REPLAYED ${p}`);
    }
    return {};
  })
  .onRequest(methods.agent.session.setMode, ({ params }) => {
    const s = session(params.sessionId);
    if (!['ask', 'careful'].includes(params.modeId)) throw RequestError.invalidParams(undefined, `no mode ${params.modeId}`);
    s.mode = params.modeId;
    return {};
  })
  .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    const s = session(params.sessionId);
    const prompt = params.prompt.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
    const [word, ...rest] = prompt.split(' ');
    const id = params.sessionId;
    let stopReason = 'end_turn';
    if (word === 'write') {
      const [file, ...content] = rest;
      await say(client, id, await write(client, id, file, content.join(' ')));
    } else if (word === 'recall') {
      await say(client, id, `earlier: ${s.prompts.join(' | ')}`);
    } else if (word === 'twice') {
      const [a, b] = rest;
      const first = await ask(client, id, 't1', a);
      const second = await ask(client, id, 't2', b);
      await say(client, id, `twice: ${first.optionId ?? first.outcome} / ${second.optionId ?? second.outcome}`);
    } else if (word === 'edit') {
      await update(client, id, { sessionUpdate: 'agent_thought_chunk', content: text('Which line to change?') });
      await update(client, id, {
        sessionUpdate: 'tool_call', toolCallId: 'd1', title: `Edit ${rest[0]}`, kind: 'edit', status: 'in_progress',
        locations: [{ path: rest[0] }],
        content: [{ type: 'diff', path: rest[0], oldText: 'alpha\nbeta\n', newText: 'alpha\nBETA\n' }],
      });
      await update(client, id, { sessionUpdate: 'tool_call_update', toolCallId: 'd1', status: 'completed' });
      await say(client, id, 'edited');
    } else if (word === 'env') {
      await say(client, id, `env ${rest[0]}=${process.env[rest[0]] ?? '(unset)'}`);
    } else if (word === 'mode') {
      await say(client, id, `mode ${s.mode}`);
    } else if (word === 'slow') {
      s.cancel = new AbortController();
      const cancelled = new Promise((resolve) => s.cancel.signal.addEventListener('abort', resolve));
      await say(client, id, 'working slowly\n');
      await cancelled;
      await say(client, id, 'stopped');
      stopReason = 'cancelled';
    } else {
      await update(client, id, {
        sessionUpdate: 'plan',
        entries: [{ content: 'Echo the prompt', priority: 'high', status: 'in_progress' }],
      });
      await update(client, id, { sessionUpdate: 'tool_call', toolCallId: 'e1', title: 'Echo', kind: 'think', status: 'completed' });
      const answer = `Echo: ${prompt}`;
      for (let i = 0; i < answer.length; i += 3) await say(client, id, answer.slice(i, i + 3));
    }
    s.prompts.push(prompt);
    if (loads) writeFileSync(kept(s.cwd, id), JSON.stringify(s.prompts));
    return { stopReason };
  })
  .onNotification(methods.agent.session.cancel, ({ params }) => {
    sessions.get(params.sessionId)?.cancel?.abort();
  });

app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
process.stdin.on('end', () => process.exit(0));
