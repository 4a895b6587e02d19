// Interop check: drives `legate bridge` running interop/acp-agent.mjs (an ACP agent built with the
// official @agentclientprotocol/sdk) with the official A2A JS client (@a2a-js/sdk ClientFactory and
// its JSON-RPC transport). Both ends of the bridge are reference SDKs; only the bridge is ours.
//
//   bin/legate bridge --agent-cmd "node interop/acp-agent.mjs" --mode careful --port 0
//   A2A_URL=http://127.0.0.1:<port> node --test acp-bridge-check.mjs
//
// Output is node:test's report ("# pass N", "# fail N"); the exit code is non-zero when a check fails.

import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';

const BASE_URL = process.env.A2A_URL || process.argv.slice(2).find((a) => /^https?:\/\//.test(a)) || 'http://127.0.0.1:41241';
const T = { timeout: 30_000 };
const opts = () => ({ signal: AbortSignal.timeout(25_000) });

let seq = 0;
const message = ({ text, taskId, contextId }) => ({
  messageId: `bridge-check-${process.pid}-${++seq}`,
  role: 'ROLE_USER',
  parts: text === undefined ? [] : [{ text }],
  ...(taskId ? { taskId } : {}),
  ...(contextId ? { contextId } : {}),
});
const send = (m, configuration) => SendMessageRequest.fromJSON({ message: m, ...(configuration ? { configuration } : {}) });
const stateName = (s) => TaskState[s] ?? String(s);
const textOf = (parts) => (parts ?? []).filter((p) => p.content?.$case === 'text').map((p) => p.content.value).join('');
const answerOf = (task) => textOf(task.artifacts?.find((a) => a.artifactId === 'answer')?.parts);

let client;
let card;
let connecting;
function connect() {
  connecting ??= (async () => {
    const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory()],
      preferredTransports: ['JSONRPC'],
    }));
    client = await factory.createFromUrl(BASE_URL);
    card = await client.getAgentCard();
  })();
  return connecting;
}
beforeEach(() => connect());

async function run(text, contextId, taskId) {
  const result = await client.sendMessage(send(message({ text, contextId, taskId })), opts());
  assert.ok(result && 'status' in result, 'SendMessage answers with a Task');
  return result;
}

describe(`legate bridge over the official ACP SDK agent, seen by the official A2A client at ${BASE_URL}`, () => {
  test('discovery: the card is built from the agent\'s own initialize answer', T, () => {
    assert.equal(card.name, 'Interop Echo Agent (via ACP)');
    assert.match(card.description, /legate-interop-acp-agent 1\.0\.0/);
    assert.equal(card.capabilities?.streaming, true);
    assert.ok(card.supportedInterfaces.some((i) => i.protocolBinding === 'JSONRPC' && i.protocolVersion === '1.0'));
    assert.ok(card.skills.some((s) => s.tags.includes('acp')), 'the skill is tagged with the backend');
  });

  test('streaming: Task first, WORKING updates with the agent\'s words, the answer artifact, then COMPLETED', T, async () => {
    const events = [];
    for await (const e of client.sendMessageStream(send(message({ text: 'hello bridge' })), opts())) events.push(e);
    assert.equal(events[0].payload.$case, 'task', 'the first event is the Task');
    assert.equal(stateName(events[0].payload.value.status.state), 'TASK_STATE_SUBMITTED');
    const said = events.filter((e) => e.payload.$case === 'statusUpdate').map((e) => textOf(e.payload.value.status.message?.parts));
    assert.ok(said.some((s) => s.startsWith('Plan:')), `a plan update, got ${JSON.stringify(said)}`);
    assert.ok(said.some((s) => s.startsWith('Tool call: Echo')), 'a tool call update');
    const artifact = events.find((e) => e.payload.$case === 'artifactUpdate')?.payload.value.artifact;
    assert.equal(textOf(artifact?.parts), 'Echo: hello bridge');
    const last = events.at(-1).payload;
    assert.equal(last.$case, 'statusUpdate');
    assert.equal(stateName(last.value.status.state), 'TASK_STATE_COMPLETED');
  });

  test('conversations: a follow-up in the same contextId lands in the session that remembers; another context does not', T, async () => {
    const first = await run('remember me');
    const followUp = await run('recall', first.contextId);
    assert.equal(answerOf(followUp), 'earlier: remember me');
    const stranger = await run('recall');
    assert.equal(answerOf(stranger), 'earlier: ');
  });

  test('supervision: the bridge selected the supervised mode it was given', T, async () => {
    assert.equal(answerOf(await run('mode')), 'mode careful');
  });

  test('permissions: an edit inside the sandbox is allowed and served by fs/*; one outside is refused and reported', T, async () => {
    const inside = await run('write notes.txt written through the bridge');
    assert.equal(stateName(inside.status.state), 'TASK_STATE_COMPLETED');
    assert.equal(answerOf(inside), 'wrote notes.txt: written through the bridge');
    const outside = await run('write /etc/legate-interop-must-not-exist nope');
    assert.equal(stateName(outside.status.state), 'TASK_STATE_COMPLETED');
    assert.match(answerOf(outside), /^not allowed to write \/etc\/legate-interop-must-not-exist \(selected reject\)/);
    assert.match(textOf(outside.status.message?.parts), /Legate refused 1 request/);
  });

  test('the record of a turn on the wire: the answer\'s data part, the changes artifact, thought and tool call frames', T, async () => {
    const events = [];
    for await (const e of client.sendMessageStream(send(message({ text: 'edit src/a.txt' })), opts())) events.push(e);
    const statuses = events.filter((e) => e.payload.$case === 'statusUpdate').map((e) => e.payload.value.status.message);
    const thought = statuses.find((m) => textOf(m?.parts).startsWith('Thinking: '));
    assert.equal(thought?.metadata?.thought, true, 'a thought frame says so in its metadata');
    assert.ok(statuses.some((m) => textOf(m?.parts) === 'Tool call: Edit src/a.txt (edit, in_progress) on src/a.txt'),
      'a tool call frame shows its kind and status');
    const artifacts = events.filter((e) => e.payload.$case === 'artifactUpdate').map((e) => e.payload.value.artifact);
    const answer = artifacts.find((a) => a.artifactId === 'answer');
    const data = answer.parts.find((p) => p.content?.$case === 'data').content.value;
    assert.equal(data.backend, 'acp');
    assert.match(data.sessionId, /^interop-/);
    assert.ok(data.root.startsWith('/'), `an absolute root, got ${data.root}`);
    assert.equal(data.stopReason, 'end_turn');
    assert.deepEqual(data.toolCalls, [{ id: 'd1', title: 'Edit src/a.txt', kind: 'edit', status: 'completed', paths: ['src/a.txt'] }]);
    assert.equal(data.failedToolCalls, 0);
    assert.deepEqual(data.refusals, []);
    assert.equal(data.budget.prompts, 1);
    const changes = artifacts.find((a) => a.artifactId === 'changes');
    assert.equal(textOf(changes?.parts), '--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1,2 +1,2 @@\n alpha\n-beta\n+BETA\n');
    assert.equal(changes.parts[0].metadata?.path, 'src/a.txt');
  });

  test('input required: a message without text asks for some; the reply resumes the same task', T, async () => {
    const parked = await run(undefined);
    assert.equal(stateName(parked.status.state), 'TASK_STATE_INPUT_REQUIRED');
    const resumed = await run('now with text', parked.contextId, parked.id);
    assert.equal(resumed.id, parked.id);
    assert.equal(answerOf(resumed), 'Echo: now with text');
  });

  test('cancel: CancelTask during the turn becomes session/cancel, and the task ends CANCELED', T, async () => {
    const events = [];
    let canceled;
    for await (const e of client.sendMessageStream(send(message({ text: 'slow' })), opts())) {
      events.push(e);
      const v = e.payload.value;
      if (!canceled && e.payload.$case === 'statusUpdate' && textOf(v.status.message?.parts).includes('working slowly')) {
        canceled = client.cancelTask({ id: v.taskId }, opts());
      }
    }
    assert.ok(canceled, 'the agent said it was working');
    assert.equal(stateName((await canceled).status.state), 'TASK_STATE_CANCELED');
    assert.equal(stateName(events.at(-1).payload.value.status.state), 'TASK_STATE_CANCELED');
    assert.ok(!events.some((e) => e.payload.$case === 'artifactUpdate'), 'a canceled turn has no artifact');
  });
});
