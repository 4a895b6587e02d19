// Interop check: ACP_PERMISSIONS=ask through `legate mcp`, seen by the official MCP TypeScript client
// (@modelcontextprotocol/sdk). Behind the endpoint runs `legate bridge` in ask mode with
// interop/acp-agent.mjs (official ACP SDK); its prompt "twice <a> <b>" asks permission to edit <a>,
// then <b>, both outside the sandbox, so each is put to the caller. A calling agent such as Claude
// Code sees a2a_ask end `interrupted` with the options in its result and a note saying how to
// answer: a2a_ask with the taskId and an optionId.
//
//   MCP_URL=http://127.0.0.1:PORT/mcp MCP_TOKEN=... node --test mcp-ask-check.mjs

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const T = { timeout: 30_000 };
assert.ok(process.env.MCP_URL && process.env.MCP_TOKEN, 'MCP_URL and MCP_TOKEN must be set');

async function connect() {
  const transport = new StreamableHTTPClientTransport(new URL(process.env.MCP_URL),
    { requestInit: { headers: { Authorization: `Bearer ${process.env.MCP_TOKEN}` } } });
  const client = new Client({ name: 'legate-mcp-ask-check', version: '0.0.0' });
  await client.connect(transport);
  return client;
}
const connected = connect();
// The client's session keeps node's event loop alive: close it once the checks are done.
after(async () => (await connected).close());

async function call(name, args) {
  const result = await (await connected).callTool({ name, arguments: args }, undefined, { timeout: 25_000 });
  return { result, s: result.structuredContent, text: result.content.map((c) => c.text ?? '').join('\n') };
}

function assertQuestion({ result, s }, path) {
  assert.equal(result.isError, false);
  assert.equal(s.outcome, 'interrupted');
  assert.equal(s.state, 'TASK_STATE_INPUT_REQUIRED');
  assert.deepEqual(s.options, [
    { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ], 'the options as the agent offered them, in the result');
  assert.match(s.note, new RegExp(`call a2a_ask with taskId ${s.taskId} and text set to one optionId: allow`));
  const question = s.statusMessage.parts.map((p) => p.text ?? '').join('');
  assert.match(question, new RegExp(`asks permission: Write ${path}`));
}

describe('ACP_PERMISSIONS=ask through legate mcp', () => {
  test('a2a_ask ends interrupted with the question; answering with the optionId continues the same turn', T, async () => {
    const first = await call('a2a_ask', { text: 'twice /etc/legate-mcp-a /etc/legate-mcp-b' });
    assertQuestion(first, '/etc/legate-mcp-a');
    const taskId = first.s.taskId;
    const unclear = await call('a2a_ask', { taskId, text: 'whatever you think' });
    assert.equal(unclear.s.outcome, 'interrupted');
    assert.match(unclear.text, /names none of the options/);
    const second = await call('a2a_ask', { taskId, text: 'allow' });
    assertQuestion(second, '/etc/legate-mcp-b');
    const done = await call('a2a_ask', { taskId, text: 'reject' });
    assert.equal(done.s.outcome, 'task');
    assert.equal(done.s.state, 'TASK_STATE_COMPLETED');
    assert.equal(done.s.taskId, taskId);
    assert.match(done.s.answer, /twice: allow \/ reject/);
    assert.equal(done.s.options, undefined, 'a finished task asks nothing');
  });

  test('a2a_cancel while asking cancels the turn', T, async () => {
    const asked = await call('a2a_ask', { text: 'twice /etc/legate-mcp-c /etc/legate-mcp-d' });
    assertQuestion(asked, '/etc/legate-mcp-c');
    const canceled = await call('a2a_cancel', { taskId: asked.s.taskId });
    assert.equal(canceled.s.state, 'TASK_STATE_CANCELED');
  });
});
