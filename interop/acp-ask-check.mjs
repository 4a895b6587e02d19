// Interop check of ACP_PERMISSIONS=ask: `legate bridge` in ask mode, running interop/acp-agent.mjs (an
// ACP agent built with the official @agentclientprotocol/sdk), driven by the official A2A JS client
// (@a2a-js/sdk). The agent's prompt "twice <a> <b>" asks permission to edit <a>, then <b>; both are
// outside the conversation's sandbox, so the built-in policy would refuse them and ask mode puts
// them to the caller instead. Each question is an INPUT_REQUIRED task; the reply into the same
// taskId answers it and the same turn goes on.
//
//   A2A_URL=http://127.0.0.1:<port> A2A_URL_IMPATIENT=http://127.0.0.1:<port2> node --test acp-ask-check.mjs
//
// A2A_URL_IMPATIENT is a bridge whose ACP_ASK_TIMEOUT_MS is short (a second or so).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';

const T = { timeout: 30_000 };
const opts = () => ({ signal: AbortSignal.timeout(25_000) });
let seq = 0;
const message = ({ text, data, taskId, contextId }) => ({
  messageId: `ask-check-${process.pid}-${++seq}`,
  role: 'ROLE_USER',
  parts: data !== undefined ? [{ data }] : [{ text }],
  ...(taskId ? { taskId } : {}),
  ...(contextId ? { contextId } : {}),
});
const stateName = (s) => TaskState[s] ?? String(s);
const textOf = (parts) => (parts ?? []).filter((p) => p.content?.$case === 'text').map((p) => p.content.value).join('');
const dataOf = (parts) => (parts ?? []).find((p) => p.content?.$case === 'data')?.content.value;
const answerOf = (task) => textOf(task.artifacts?.find((a) => a.artifactId === 'answer')?.parts);

async function connect(url) {
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory()],
    preferredTransports: ['JSONRPC'],
  }));
  return factory.createFromUrl(url);
}
const patient = connect(process.env.A2A_URL);
const impatient = connect(process.env.A2A_URL_IMPATIENT);

async function send(client, m) {
  const result = await (await client).sendMessage(SendMessageRequest.fromJSON({ message: m }), opts());
  assert.ok(result && 'status' in result, 'SendMessage answers with a Task');
  return result;
}
const ask = (client, text) => send(client, message({ text }));
const reply = (client, task, answer) => send(client, message({ ...answer, taskId: task.id, contextId: task.contextId }));

function assertQuestion(task, path) {
  assert.equal(stateName(task.status.state), 'TASK_STATE_INPUT_REQUIRED');
  const said = textOf(task.status.message?.parts);
  assert.match(said, new RegExp(`asks permission: Write ${path} \\(edit\\)`));
  const permission = dataOf(task.status.message?.parts)?.permission;
  assert.deepEqual(permission?.options, [
    { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ], 'the options exactly as the agent offered them');
  assert.deepEqual(permission?.paths, [path]);
  assert.deepEqual(permission?.toolCall?.locations, [{ path }], 'the tool call as the agent sent it');
}

describe('ACP_PERMISSIONS=ask seen by the official A2A client', () => {
  test('yes allows, no refuses: two requests in one turn are asked one at a time, in order', T, async () => {
    const first = await ask(patient, 'twice /etc/legate-ask-a /etc/legate-ask-b');
    assertQuestion(first, '/etc/legate-ask-a');
    const second = await reply(patient, first, { text: 'yes' });
    assert.equal(second.id, first.id, 'the reply continues the same task');
    assertQuestion(second, '/etc/legate-ask-b');
    const done = await reply(patient, first, { text: 'no' });
    assert.equal(stateName(done.status.state), 'TASK_STATE_COMPLETED');
    assert.equal(answerOf(done), 'twice: allow / reject');
    assert.match(textOf(done.status.message?.parts), /Legate refused 1 request/);
  });

  test('an answer that names no option is asked again; a data part or an option\'s name answers', T, async () => {
    const first = await ask(patient, 'twice /etc/legate-ask-c /etc/legate-ask-d');
    const again = await reply(patient, first, { text: 'maybe later' });
    assert.equal(stateName(again.status.state), 'TASK_STATE_INPUT_REQUIRED');
    assert.match(textOf(again.status.message?.parts), /names none of the options/);
    const second = await reply(patient, first, { data: { optionId: 'allow' } });
    assertQuestion(second, '/etc/legate-ask-d');
    const done = await reply(patient, first, { text: 'Reject' });
    assert.equal(answerOf(done), 'twice: allow / reject');
  });

  test('a cancel while asking cancels the turn', T, async () => {
    const asked = await ask(patient, 'twice /etc/legate-ask-e /etc/legate-ask-f');
    assertQuestion(asked, '/etc/legate-ask-e');
    const canceled = await (await patient).cancelTask({ id: asked.id }, opts());
    assert.equal(stateName(canceled.status.state), 'TASK_STATE_CANCELED');
  });

  test('no answer in time: refused with the agent\'s own refusal, never an approval, and noted', T, async () => {
    const asked = await ask(impatient, 'twice /etc/legate-ask-g /etc/legate-ask-h');
    assertQuestion(asked, '/etc/legate-ask-g');
    let task = asked;
    // Bounded: both questions time out (about a second each), then the turn ends by itself.
    for (let i = 0; i < 200 && stateName(task.status.state) !== 'TASK_STATE_COMPLETED'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      task = await (await impatient).getTask({ id: asked.id }, opts());
    }
    assert.equal(stateName(task.status.state), 'TASK_STATE_COMPLETED');
    assert.equal(answerOf(task), 'twice: reject / reject');
    assert.match(textOf(task.status.message?.parts), /was not answered within \d+ ms/);
  });
});
