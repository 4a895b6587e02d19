// Interop check: drives `legate mcp` with the official MCP TypeScript CLIENT
// (@modelcontextprotocol/sdk: Client + StreamableHTTPClientTransport) and asserts
// what a calling agent such as Claude Code observes: the bearer and Host guards,
// the four tools and their schemas, progress, the four outcomes and the silence gate.
//
//   MCP_URL        an endpoint publishing ONE Revisor agent (the agent argument may be left out)
//   MCP_MULTI_URL  an endpoint publishing the aliases revisor, quiet and cut, with short timers:
//                  quiet sends its Task and then nothing; cut sends its Task and closes the stream
//   MCP_TOKEN      the bearer token of both endpoints
//
//   MCP_URL=http://127.0.0.1:PORT/mcp MCP_MULTI_URL=... MCP_TOKEN=... node --test mcp-client-check.mjs
//
// McpInteropTest in mcp-bridge starts all of that in process and runs this file.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const MCP_URL = process.env.MCP_URL;
const MULTI_URL = process.env.MCP_MULTI_URL;
const TOKEN = process.env.MCP_TOKEN;
const TEXT = 'The quick brown fox jumps over the lazy dog. It was not amused!';
const T = { timeout: 20_000 };

assert.ok(MCP_URL && MULTI_URL && TOKEN, 'MCP_URL, MCP_MULTI_URL and MCP_TOKEN must be set');

async function connect(url, token = TOKEN) {
  const headers = token === null ? {} : { Authorization: `Bearer ${token}` };
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: 'legate-mcp-check', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

/** Calls a tool and records every progress notification it brings. */
async function call(client, name, args) {
  const progress = [];
  const result = await client.callTool({ name, arguments: args }, undefined, {
    onprogress: (p) => progress.push(p),
    timeout: 15_000,
  });
  return { result, progress, text: result.content.map((c) => c.text ?? '').join('\n') };
}

/** A raw initialize POST, for what the SDK client hides: status codes and headers. */
function rawInitialize(url, headers) {
  const u = new URL(url);
  const body = JSON.stringify({
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: u.hostname, port: u.port, path: u.pathname, method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function rejects(connecting) {
  let client;
  try {
    client = await connecting();
  } catch (e) {
    return e;
  }
  await client.close();
  assert.fail('expected the connection to be refused');
}

describe('legate mcp through the official MCP TypeScript client', () => {
  // Bearer token on every request (RFC 6750): none or a wrong one is 401 with a challenge.
  test('401 with a WWW-Authenticate challenge without a token and with a wrong one', T, async () => {
    const none = await rawInitialize(MCP_URL, {});
    assert.equal(none.status, 401);
    assert.match(none.headers['www-authenticate'] ?? '', /^Bearer realm=/);
    const wrong = await rawInitialize(MCP_URL, { Authorization: 'Bearer not-the-token' });
    assert.equal(wrong.status, 401);
    assert.match(wrong.headers['www-authenticate'] ?? '', /error="invalid_token"/);
    const sdkNone = await rejects(() => connect(MCP_URL, null));
    assert.equal(sdkNone.code, 401, String(sdkNone));
    const sdkWrong = await rejects(() => connect(MCP_URL, 'not-the-token'));
    assert.equal(sdkWrong.code, 401, String(sdkWrong));
  });

  // DNS rebinding: a loopback endpoint answers only to loopback Host names, before anything else.
  test('a Host header that is not allowed is refused with 403, token or not', T, async () => {
    const withToken = await rawInitialize(MCP_URL, { Host: 'evil.example:41243', Authorization: `Bearer ${TOKEN}` });
    assert.equal(withToken.status, 403);
    const without = await rawInitialize(MCP_URL, { Host: 'evil.example' });
    assert.equal(without.status, 403, 'the Host check comes before the token check');
    const origin = await rawInitialize(MCP_URL, { Origin: 'http://evil.example', Authorization: `Bearer ${TOKEN}` });
    assert.equal(origin.status, 403);
    const loopback = await rawInitialize(MCP_URL, { Host: `localhost:${new URL(MCP_URL).port}`, Authorization: `Bearer ${TOKEN}` });
    assert.equal(loopback.status, 200, 'localhost with any port is a loopback name');
  });

  test('the four tools, with their schemas, and the server named legate-mcp', T, async () => {
    const client = await connect(MCP_URL);
    try {
      assert.equal(client.getServerVersion()?.name, 'legate-mcp');
      const { tools } = await client.listTools();
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      assert.deepEqual(tools.map((t) => t.name).sort(), ['a2a_ask', 'a2a_cancel', 'a2a_card', 'a2a_task']);
      const ask = byName.a2a_ask.inputSchema;
      assert.deepEqual(Object.keys(ask.properties).sort(), ['agent', 'contextId', 'taskId', 'text']);
      assert.deepEqual(ask.required, ['text']);
      assert.deepEqual(byName.a2a_task.inputSchema.required, ['taskId']);
      assert.deepEqual(byName.a2a_cancel.inputSchema.required, ['taskId']);
      assert.deepEqual(byName.a2a_card.inputSchema.required ?? [], []);
      // The description must warn that a contextId alone opens a second task.
      assert.match(byName.a2a_ask.description, /taskId continues that task/);
      assert.match(byName.a2a_ask.description, /contextId alone opens a second task/);
      assert.equal(byName.a2a_ask.outputSchema.type, 'object');
      const card = await call(client, 'a2a_card', {});
      assert.equal(card.result.isError ?? false, false, card.text);
      assert.equal(card.result.structuredContent.name, 'Revisor');
      assert.ok(card.result.structuredContent.supportedInterfaces.length > 0);
    } finally {
      await client.close();
    }
  });

  // A2A §3.1.2 seen through MCP: every event a progress notification, progress increasing, the
  // first one carrying the ids; a terminal task is outcome "task" with its artifact.
  test('a2a_ask streams progress for every event and ends with the completed task and its artifact', T, async () => {
    const client = await connect(MCP_URL);
    try {
      const { result, progress, text } = await call(client, 'a2a_ask', { text: TEXT });
      assert.equal(result.isError ?? false, false, text);
      const s = result.structuredContent;
      assert.equal(s.outcome, 'task');
      assert.equal(s.state, 'TASK_STATE_COMPLETED');
      assert.equal(s.agent, 'default');
      assert.deepEqual(s.artifacts.map((a) => a.artifactId), ['text-stats']);
      assert.equal(s.artifacts[0].parts[1].data.words, 13, 'the data part survives');
      assert.match(s.answer, /Words: 13/);
      assert.ok(progress.length >= 5, `one notification per event, got ${progress.length}`);
      for (let i = 1; i < progress.length; i++) {
        assert.ok(progress[i].progress > progress[i - 1].progress, 'progress strictly increases');
      }
      assert.ok(progress[0].message.includes(s.taskId), 'the first notification carries the taskId in full');
      assert.ok(progress[0].message.includes(s.contextId), 'the first notification carries the contextId in full');
      assert.ok(progress.some((p) => /completed/.test(p.message)));
      assert.match(text, new RegExp(s.taskId));
    } finally {
      await client.close();
    }
  });

  // A2A §3.1.3: INPUT_REQUIRED is outcome "interrupted", not an error; a reply into the taskId
  // continues the same task; a2a_task reads it back; a finished task cannot be canceled.
  test('interrupted, then a reply into the taskId completes it; a2a_task and a2a_cancel see it', T, async () => {
    const client = await connect(MCP_URL);
    try {
      const first = await call(client, 'a2a_ask', { text: '' });
      assert.equal(first.result.isError ?? false, false, first.text);
      const s1 = first.result.structuredContent;
      assert.equal(s1.outcome, 'interrupted');
      assert.equal(s1.state, 'TASK_STATE_INPUT_REQUIRED');
      assert.match(s1.statusMessage.parts[0].text, /Send me some text/);
      assert.match(first.text, new RegExp(`taskId ${s1.taskId}`), 'the result says to reply with this taskId');

      const second = await call(client, 'a2a_ask', { text: TEXT, taskId: s1.taskId });
      const s2 = second.result.structuredContent;
      assert.equal(second.result.isError ?? false, false, second.text);
      assert.equal(s2.outcome, 'task');
      assert.equal(s2.taskId, s1.taskId, 'the reply continued the same task');
      assert.equal(s2.contextId, s1.contextId);
      assert.equal(s2.state, 'TASK_STATE_COMPLETED');

      const read = await call(client, 'a2a_task', { taskId: s1.taskId });
      assert.equal(read.result.isError ?? false, false, read.text);
      assert.equal(read.result.structuredContent.state, 'TASK_STATE_COMPLETED');
      assert.deepEqual(read.result.structuredContent.artifacts.map((a) => a.artifactId), ['text-stats']);

      const cancel = await call(client, 'a2a_cancel', { taskId: s1.taskId });
      assert.equal(cancel.result.isError, true, 'a finished task cannot be canceled');
      assert.match(cancel.text, /TASK_NOT_CANCELABLE|-32002/);
      const again = await client.listTools();
      assert.equal(again.tools.length, 4, 'the endpoint still serves after the refusal');
    } finally {
      await client.close();
    }
  });

  test('an unknown alias is an error listing the configured agents; so is no alias among several', T, async () => {
    const single = await connect(MCP_URL);
    const multi = await connect(MULTI_URL);
    try {
      const unknown = await call(single, 'a2a_ask', { text: TEXT, agent: 'nope' });
      assert.equal(unknown.result.isError, true);
      assert.match(unknown.text, /"nope"/);
      assert.match(unknown.text, /configured: default/);
      const missing = await call(multi, 'a2a_card', {});
      assert.equal(missing.result.isError, true);
      assert.match(missing.text, /revisor, quiet, cut/);
      const named = await call(multi, 'a2a_card', { agent: 'revisor' });
      assert.equal(named.result.structuredContent.name, 'Revisor');
    } finally {
      await single.close();
      await multi.close();
    }
  });

  // A wedged agent must not be kept alive by a timer: heartbeats while it is quiet, then an error
  // naming the agent, the task, the context and the tools that reach the work.
  test('the silence gate gives up on a quiet agent after heartbeats, naming the work and how to reach it', T, async () => {
    const client = await connect(MULTI_URL);
    try {
      const { result, progress, text } = await call(client, 'a2a_ask', { text: TEXT, agent: 'quiet' });
      assert.equal(result.isError, true, text);
      const s = result.structuredContent;
      assert.equal(s.outcome, 'truncated');
      assert.equal(s.taskId, 'quiet-task');
      assert.equal(s.contextId, 'quiet-context');
      for (const word of ['quiet', 'quiet-task', 'quiet-context', 'a2a_task', 'a2a_cancel']) {
        assert.ok(text.includes(word), `the error names ${word}: ${text}`);
      }
      assert.ok(progress.filter((p) => /still waiting/.test(p.message)).length >= 2, 'heartbeats while quiet');
      for (let i = 1; i < progress.length; i++) {
        assert.ok(progress[i].progress > progress[i - 1].progress, 'progress strictly increases');
      }
    } finally {
      await client.close();
    }
  });

  test('a stream cut short is outcome truncated, an error carrying the task to recover', T, async () => {
    const client = await connect(MULTI_URL);
    try {
      const { result, text } = await call(client, 'a2a_ask', { text: TEXT, agent: 'cut' });
      assert.equal(result.isError, true, text);
      const s = result.structuredContent;
      assert.equal(s.outcome, 'truncated');
      assert.equal(s.taskId, 'cut-task');
      assert.equal(s.state, 'TASK_STATE_WORKING');
      assert.match(text, /a2a_task/);
    } finally {
      await client.close();
    }
  });
});
