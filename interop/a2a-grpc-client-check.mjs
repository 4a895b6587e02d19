// Interop check over the gRPC binding (A2A §10): drives ANY "Revisor" A2A v1.0 server that lists a
// GRPC interface in its card with the official @a2a-js/sdk CLIENT and its gRPC transport
// (GrpcTransportFactory, on @grpc/grpc-js), and asserts protocol rules plus the Revisor semantics.
//
//   A2A_URL=http://127.0.0.1:41241 node --test a2a-grpc-client-check.mjs
//
// The card is fetched over HTTP from A2A_URL; every call then goes to the card's GRPC interface
// (host:port). Needs a server that pauses between steps (STEP_DELAY_MS around 300 or more), as
// a2a-client-check.mjs does. Output is node:test's report; the exit code is non-zero on a failure.

import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ListTasksRequest, Role, SendMessageRequest, TaskState } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';

const BASE_URL = process.env.A2A_URL || 'http://127.0.0.1:41241';
const T = { timeout: 15_000 };
const STREAM_TIMEOUT_MS = 10_000;
// gRPC status codes (grpc/status.proto) the A2A errors map to (A2A 1.0.0 §5.4, which Legate
// answers). The SDK's own server answers 1.0.1's FAILED_PRECONDITION where 1.0.0 says
// UNIMPLEMENTED; its client names the error class from the ErrorInfo reason alone
// (fromGrpcError), which is what the error test below shows.
const NOT_FOUND = 5;
const FAILED_PRECONDITION = 9;
const UNIMPLEMENTED = 12;

let seq = 0;
function userMessage({ text, parts, taskId, contextId } = {}) {
  return {
    messageId: `grpc-check-${process.pid}-${Date.now()}-${++seq}`,
    role: 'ROLE_USER',
    parts: parts ?? [{ text }],
    ...(taskId ? { taskId } : {}),
    ...(contextId ? { contextId } : {}),
  };
}
const sendRequest = (message, configuration) =>
  SendMessageRequest.fromJSON({ message, ...(configuration ? { configuration } : {}) });
const stateName = (s) => TaskState[s] ?? String(s);
const isTask = (r) => r && typeof r === 'object' && 'status' in r && !('messageId' in r);
const textOf = (part) => (part?.content?.$case === 'text' ? part.content.value : undefined);
const opts = () => ({ signal: AbortSignal.timeout(STREAM_TIMEOUT_MS) });

function assertState(task, expected, what) {
  assert.equal(stateName(task?.status?.state), stateName(expected), `${what}: got ${stateName(task?.status?.state)}`);
}

async function collect(stream) {
  const events = [];
  for await (const ev of stream) events.push(ev);
  return events;
}

/** Expects fn to reject with the SDK's gRPC error of that A2A name (read from ErrorInfo.reason) and status. */
async function expectGrpcError(fn, name, status) {
  let caught;
  try {
    await fn();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught, `expected ${name}, but the call succeeded`);
  assert.equal(caught.transport, 'grpc', `the error should come from the gRPC transport, got ${caught?.name}: ${caught?.message}`);
  assert.equal(caught.name, name, `expected ${name} (from the ErrorInfo reason), got ${caught.name}: ${caught.message}`);
  assert.equal(caught.status, status, `gRPC status: expected ${status}, got ${caught.status}`);
  return caught;
}

let client;
let card;
let conversation;
let connecting;
function connect() {
  connecting ??= (async () => {
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new GrpcTransportFactory()],
        preferredTransports: ['GRPC'],
      }),
    );
    client = await factory.createFromUrl(BASE_URL);
    card = await client.getAgentCard();
  })();
  return connecting;
}

beforeEach(() => connect());

describe(`A2A v1.0 Revisor over gRPC against ${BASE_URL}`, () => {
  test('discovery [spec 8.3, 10]: the card lists a GRPC 1.0 interface as host:port, and the client speaks gRPC', T, () => {
    const grpcInterfaces = (card.supportedInterfaces ?? []).filter((i) => i.protocolBinding === 'GRPC');
    assert.equal(grpcInterfaces.length, 1, 'one GRPC interface');
    assert.equal(grpcInterfaces[0].protocolVersion, '1.0');
    assert.match(grpcInterfaces[0].url, /^[^/:]+:\d+$/, `a gRPC interface URL is host:port, got ${grpcInterfaces[0].url}`);
    assert.equal(client.transport.protocolName, 'GRPC', 'the client should have picked the gRPC transport');
  });

  test('SendMessage blocking [spec 3.2.2]: empty text answers the Task in INPUT_REQUIRED with an agent question', T, async () => {
    const result = await client.sendMessage(sendRequest(userMessage({ text: '' })), opts());
    assert.ok(isTask(result), 'SendMessage should answer with a Task');
    assertState(result, TaskState.TASK_STATE_INPUT_REQUIRED, 'empty-text send');
    assert.equal(result.status.message?.role, Role.ROLE_AGENT);
    conversation = { taskId: result.id, contextId: result.contextId };
  });

  test('SendMessage continuation [spec 9.1]: the reply into the same taskId completes it with the text-stats artifact', T, async () => {
    assert.ok(conversation, 'needs the INPUT_REQUIRED task');
    const result = await client.sendMessage(
      sendRequest(userMessage({ text: 'The quick brown fox. It jumps!', ...conversation })), opts());
    assert.equal(result.id, conversation.taskId);
    assertState(result, TaskState.TASK_STATE_COMPLETED, 'continued task');
    assert.equal(result.artifacts[0]?.artifactId, 'text-stats');
    assert.equal(textOf(result.artifacts[0].parts[0]), 'Words: 6, characters: 30, sentences: 2.');
  });

  test('SendStreamingMessage [spec 3.1.2, 10]: Task first, WORKING updates, the artifact, then COMPLETED ends the stream', T, async () => {
    const events = await collect(client.sendMessageStream(sendRequest(userMessage({ text: 'One. Two! Three? Four' })), opts()));
    const kinds = events.map((e) => e.payload?.$case);
    assert.equal(kinds[0], 'task', `first event must be a Task, got ${kinds.join(',')}`);
    assertState(events[0].payload.value, TaskState.TASK_STATE_SUBMITTED, 'first streamed Task');
    assert.ok(kinds.includes('artifactUpdate'), 'an artifact update must be streamed');
    assert.ok(events.some((e) => e.payload.$case === 'statusUpdate'
      && e.payload.value.status?.state === TaskState.TASK_STATE_WORKING), 'a WORKING update');
    const last = events.at(-1);
    assert.equal(last.payload.$case, 'statusUpdate');
    assertState(last.payload.value, TaskState.TASK_STATE_COMPLETED, 'last streamed status');
  });

  test('GetTask [spec 3.1.3]: the stored COMPLETED task with its artifact; historyLength 0 => no history', T, async () => {
    const full = await client.getTask({ id: conversation.taskId }, opts());
    assertState(full, TaskState.TASK_STATE_COMPLETED, 'GetTask');
    assert.equal(full.artifacts.length, 1);
    const none = await client.getTask({ id: conversation.taskId, historyLength: 0 }, opts());
    assert.equal(none.history.length, 0, 'historyLength 0 must omit history');
  });

  test('CancelTask [spec 3.1.5]: a running task (returnImmediately) is CANCELED', T, async () => {
    const started = await client.sendMessage(
      sendRequest(userMessage({ text: 'Please take your time with this one.' }), { returnImmediately: true }), opts());
    assert.ok([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING].includes(started.status?.state));
    const canceled = await client.cancelTask({ id: started.id }, opts());
    assertState(canceled, TaskState.TASK_STATE_CANCELED, 'CancelTask result');
  });

  test('ListTasks [spec 3.1.4]: a contextId filter returns exactly that conversation, paged by pageToken', T, async () => {
    const contextId = crypto.randomUUID();
    const a = await client.sendMessage(sendRequest(userMessage({ text: 'Alpha beta.', contextId })), opts());
    const b = await client.sendMessage(sendRequest(userMessage({ text: 'Gamma delta!', contextId })), opts());
    const list = await client.listTasks(ListTasksRequest.fromJSON({ contextId }), opts());
    assert.deepEqual(new Set(list.tasks.map((t) => t.id)), new Set([a.id, b.id]));
    assert.equal(list.totalSize, 2);
    assert.equal(list.nextPageToken, '');
    const page1 = await client.listTasks(ListTasksRequest.fromJSON({ contextId, pageSize: 1 }), opts());
    assert.equal(page1.tasks.length, 1);
    const page2 = await client.listTasks(
      ListTasksRequest.fromJSON({ contextId, pageSize: 1, pageToken: page1.nextPageToken }), opts());
    assert.notEqual(page2.tasks[0].id, page1.tasks[0].id);
  });

  test('SubscribeToTask [spec 3.1.6]: a Task snapshot first, then the live events to COMPLETED', T, async () => {
    const started = await client.sendMessage(
      sendRequest(userMessage({ text: 'Resubscribe to me. Please!' }), { returnImmediately: true }), opts());
    const events = await collect(client.resubscribeTask({ id: started.id }, opts()));
    assert.equal(events[0].payload?.$case, 'task', 'first SubscribeToTask event must be a Task snapshot');
    assert.equal(events[0].payload.value.id, started.id);
    assertState(events.at(-1).payload.value, TaskState.TASK_STATE_COMPLETED, 'last subscribed event');
  });

  test('errors [spec 1.0.0 5.4, 10.6]: TaskNotFound is NOT_FOUND, TaskNotCancelable FAILED_PRECONDITION, UnsupportedOperation UNIMPLEMENTED, each named by its ErrorInfo', T, async () => {
    await expectGrpcError(() => client.getTask({ id: `no-such-task-${crypto.randomUUID()}` }, opts()),
      'TaskNotFoundError', NOT_FOUND);
    await expectGrpcError(() => client.cancelTask({ id: conversation.taskId }, opts()),
      'TaskNotCancelableError', FAILED_PRECONDITION);
    await expectGrpcError(() => client.sendMessage(sendRequest(userMessage({ text: 'More.', ...conversation })), opts()),
      'UnsupportedOperationError', UNIMPLEMENTED);
    await expectGrpcError(() => collect(client.resubscribeTask({ id: conversation.taskId }, opts())),
      'UnsupportedOperationError', UNIMPLEMENTED);
  });
});
