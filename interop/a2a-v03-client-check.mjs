// Interop check: drives an A2A server's v0.3 JSON-RPC interface with the official
// @a2a-js/sdk v0.3 compat client (LegacyJsonRpcTransport, picked by the SDK's own
// JsonRpcTransportFactory with legacyCompat for the card's JSONRPC interface of
// protocolVersion 0.3), and asserts what a v0.3 client sees: blocking send,
// input-required and its reply, a stream, get, cancel, resubscribe, errors.
//
// The server's agent: an empty text asks a question (input-required); "slow" works
// until canceled; any other text completes with an artifact "count" whose parts are
// the text "Words: N" and the data {"words": N}.
//
//   A2A_URL=http://127.0.0.1:41251 node --test a2a-v03-client-check.mjs
//
// Output is node:test's report ("# pass N", "# fail N"); non-zero exit on a failure.

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import {
  Client,
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { LegacyJsonRpcTransport } from '@a2a-js/sdk/compat/v0_3/client';
import { A2AError, TaskNotCancelableError, TaskNotFoundError } from '@a2a-js/sdk/errors';

const BASE_URL = process.env.A2A_URL || 'http://127.0.0.1:41251';
const T = { timeout: 20_000 };
const opts = () => ({ signal: AbortSignal.timeout(15_000) });

/** Every request the v0.3 client put on the wire: URL, headers, the JSON-RPC method, and what came back. */
const wire = [];
async function recordingFetch(input, init) {
  const entry = { url: String(input), headers: { ...(init?.headers ?? {}) }, method: JSON.parse(init.body).method };
  wire.push(entry);
  const res = await fetch(input, init);
  entry.contentType = res.headers.get('content-type') ?? '';
  // Not awaited here: a stream's body is complete only when the stream ends.
  entry.body = res.clone().text();
  return res;
}

let seq = 0;
function request(text, { taskId, returnImmediately } = {}) {
  return SendMessageRequest.fromJSON({
    message: {
      messageId: `v03-check-${process.pid}-${++seq}`,
      role: 'ROLE_USER',
      parts: [{ text }],
      ...(taskId ? { taskId } : {}),
    },
    ...(returnImmediately ? { configuration: { returnImmediately: true } } : {}),
  });
}

async function collect(stream) {
  const events = [];
  for await (const ev of stream) events.push(ev);
  return events;
}

const kindOf = (ev) => ev.payload?.$case;
const stateOf = (ev) => (ev.payload.$case === 'task' ? ev.payload.value.status.state : ev.payload.value.status?.state);

async function expectRpcError(fn, code, errorClass) {
  let caught;
  try {
    await fn();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught, `expected JSON-RPC error ${code}, the call succeeded`);
  assert.ok(caught instanceof A2AError, `expected an A2AError, got ${caught?.name}: ${caught?.message}`);
  assert.equal(caught.envelopeCode, code, `error.code: expected ${code}, got ${caught.envelopeCode} (${caught.message})`);
  if (errorClass) assert.ok(caught instanceof errorClass, `expected ${errorClass.name}, got ${caught.name}`);
}

let card;
let v03Url;
let transport;
let client;

before(async () => {
  // Discovery as the SDK does it; the card names both JSON-RPC interfaces.
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory()],
      preferredTransports: ['JSONRPC'],
    }),
  );
  card = await (await factory.createFromUrl(BASE_URL)).getAgentCard();
  v03Url = card.supportedInterfaces.find((i) => i.protocolBinding === 'JSONRPC' && i.protocolVersion === '0.3')?.url;
  transport = await new JsonRpcTransportFactory({ legacyCompat: { enabled: true }, fetchImpl: recordingFetch })
    .create(v03Url ?? BASE_URL, card);
  client = new Client(transport, card);
});

describe('the official v0.3 client against the v0.3 interface', () => {
  test('the card declares a JSONRPC interface of protocolVersion 0.3, and the SDK picks its v0.3 transport for it', T, () => {
    assert.ok(v03Url, `no JSONRPC 0.3 interface in ${JSON.stringify(card.supportedInterfaces)}`);
    // The client bundle holds its own copy of the class, so it is known by name, not instanceof.
    assert.equal(transport.constructor.name, LegacyJsonRpcTransport.name, 'the factory should pick LegacyJsonRpcTransport');
    assert.equal(transport.protocolVersion, '0.3');
  });

  test('message/send (blocking): the finished task, its artifact in text and data parts', T, async () => {
    const task = await client.sendMessage(request('one two three'), opts());
    assert.equal(task.status.state, TaskState.TASK_STATE_COMPLETED);
    const parts = task.artifacts[0].parts;
    assert.equal(parts[0].content.value, 'Words: 3');
    assert.equal(parts[1].content.$case, 'data');
    assert.equal(parts[1].content.value.words, 3);
    const raw = JSON.parse(await wire.at(-1).body);
    assert.equal(raw.result.kind, 'task', 'the v0.3 result is discriminated by kind');
    assert.equal(raw.result.status.state, 'completed', 'v0.3 states are lower-case');
  });

  test('input-required, then the reply into the same task completes it', T, async () => {
    const asked = await client.sendMessage(request(''), opts());
    assert.equal(asked.status.state, TaskState.TASK_STATE_INPUT_REQUIRED);
    assert.match(asked.status.message.parts[0].content.value, /count/);
    assert.equal(JSON.parse(await wire.at(-1).body).result.status.state, 'input-required');
    const done = await client.sendMessage(request('now four words here', { taskId: asked.id }), opts());
    assert.equal(done.id, asked.id);
    assert.equal(done.status.state, TaskState.TASK_STATE_COMPLETED);
  });

  test('message/stream: task, working, the artifact, completed; the last status update is final', T, async () => {
    const events = await collect(client.sendMessageStream(request('a b'), opts()));
    assert.deepEqual(events.map(kindOf), ['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
    assert.equal(stateOf(events.at(-1)), TaskState.TASK_STATE_COMPLETED);
    const sse = await wire.at(-1).body;
    const frames = sse.split('\n').filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5)).result);
    assert.deepEqual(frames.map((f) => f.kind), ['task', 'status-update', 'artifact-update', 'status-update']);
    assert.deepEqual(frames.filter((f) => f.kind === 'status-update').map((f) => f.final), [false, true]);
    assert.equal(sse.split('\n').filter((l) => l.startsWith('id:')).length, 4, 'an id: on every frame');
  });

  test('tasks/get: the stored task; historyLength 0 leaves the history out', T, async () => {
    const task = await client.sendMessage(request('x y'), opts());
    const got = await client.getTask({ id: task.id, historyLength: 0 }, opts());
    assert.equal(got.id, task.id);
    assert.equal(got.status.state, TaskState.TASK_STATE_COMPLETED);
    assert.equal(got.history.length, 0);
  });

  test('tasks/cancel of a running task: canceled; of a finished one: TaskNotCancelable (-32002)', T, async () => {
    const started = await client.sendMessage(request('slow', { returnImmediately: true }), opts());
    assert.notEqual(started.status.state, TaskState.TASK_STATE_COMPLETED);
    const canceled = await client.cancelTask({ id: started.id }, opts());
    assert.equal(canceled.status.state, TaskState.TASK_STATE_CANCELED);
    await expectRpcError(() => client.cancelTask({ id: started.id }, opts()), -32002, TaskNotCancelableError);
  });

  test('tasks/resubscribe to a running task: its snapshot first, then the cancel ends the stream', T, async () => {
    const started = await client.sendMessage(request('slow', { returnImmediately: true }), opts());
    const stream = client.resubscribeTask({ id: started.id }, opts());
    const first = await stream.next();
    assert.equal(kindOf(first.value), 'task');
    assert.equal(first.value.payload.value.id, started.id);
    await client.cancelTask({ id: started.id }, opts());
    const rest = [];
    for await (const ev of stream) rest.push(ev);
    assert.equal(stateOf(rest.at(-1)), TaskState.TASK_STATE_CANCELED);
  });

  test('an unknown task is TaskNotFound (-32001)', T, async () => {
    await expectRpcError(() => client.getTask({ id: `no-such-task-${crypto.randomUUID()}` }, opts()), -32001, TaskNotFoundError);
  });

  test('every call went to the v0.3 URL with a v0.3 method name and A2A-Version 0.3', T, () => {
    assert.ok(wire.length >= 10, `only ${wire.length} calls recorded`);
    for (const call of wire) {
      assert.equal(call.url, v03Url);
      assert.match(call.method, /^(message|tasks|agent)\//);
      assert.equal(call.headers['A2A-Version'], '0.3');
    }
  });
});
