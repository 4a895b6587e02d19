// Interop check: drives a "Revisor" A2A v1.0 server over the HTTP+JSON (REST)
// binding with the official @a2a-js/sdk CLIENT (ClientFactory.createFromUrl
// with only the REST transport) and asserts protocol rules plus the Revisor
// semantics: blocking and streaming sends, GetTask, CancelTask, ListTasks,
// SubscribeToTask and the errors, each as the SDK's REST client reads them.
// A few checks look at the raw wire with fetch (the error body's shape, bad
// input, the Content-Type), which the SDK hides behind its error classes.
//
// The statuses are A2A 1.0.0's (§5.4), which Legate answers: TaskNotCancelable
// 409, ContentTypeNotSupported 415. The SDK itself answers 1.0.1's 400 for
// both; its REST client names the error class from the ErrorInfo reason alone
// (fromRestErrorBody), which is what the error tests below show.
//
//   A2A_URL=http://127.0.0.1:41241 node --test a2a-rest-check.mjs
//
// Needs a server that pauses between steps (STEP_DELAY_MS around 300): the
// cancel and subscribe checks must catch a task while it still works.

import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ListTasksRequest, SendMessageRequest, TaskState } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, RestTransportFactory } from '@a2a-js/sdk/client';
import {
  A2AError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';

const BASE_URL = process.env.A2A_URL || 'http://127.0.0.1:41241';
const T = { timeout: 15_000 };
const opts = () => ({ signal: AbortSignal.timeout(10_000) });
const TEXT = 'The quick brown fox jumps over the lazy dog. It was not amused!';

let seq = 0;
function userMessage({ text, taskId, contextId } = {}) {
  return {
    messageId: `rest-check-${process.pid}-${Date.now()}-${++seq}`,
    role: 'ROLE_USER',
    parts: [{ text }],
    ...(taskId ? { taskId } : {}),
    ...(contextId ? { contextId } : {}),
  };
}
const sendRequest = (message, configuration) =>
  SendMessageRequest.fromJSON({ message, ...(configuration ? { configuration } : {}) });
const stateName = (s) => TaskState[s] ?? String(s);
const kindOf = (ev) => ev?.payload?.$case;
const isTask = (r) => r && typeof r === 'object' && 'status' in r && !('messageId' in r);

function assertState(task, expected, what) {
  assert.equal(stateName(task?.status?.state), stateName(expected), `${what}: got ${stateName(task?.status?.state)}`);
}

async function collect(stream) {
  const events = [];
  for await (const ev of stream) events.push(ev);
  return events;
}

/** Runs fn, expects the SDK's REST transport to reject with the given error class and HTTP status. */
async function expectRestError(fn, errorClass, httpStatus) {
  let caught;
  try {
    await fn();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught, `expected ${errorClass.name}, but the call succeeded`);
  assert.ok(caught instanceof A2AError, `expected an A2AError, got ${caught?.name}: ${caught?.message}`);
  assert.equal(caught.transport, 'rest', 'the error should come from the REST transport');
  assert.ok(caught instanceof errorClass, `expected ${errorClass.name}, got ${caught.name}: ${caught.message}`);
  assert.equal(caught.statusCode, httpStatus, `HTTP status of ${errorClass.name}`);
}

let client;
let card;
let restUrl;
let connecting;
function connect() {
  connecting ??= (async () => {
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new RestTransportFactory()],
        preferredTransports: ['HTTP+JSON'],
      }),
    );
    client = await factory.createFromUrl(BASE_URL);
    card = await client.getAgentCard();
    restUrl = card.supportedInterfaces.find((i) => i.protocolBinding === 'HTTP+JSON').url;
  })();
  return connecting;
}
beforeEach(() => connect());

/** A raw request to the REST interface: for what the SDK's classes do not show. */
async function raw(method, path, body, headers = {}) {
  const res = await fetch(`${restUrl}${path}`, {
    method,
    headers: { 'A2A-Version': '1.0', ...headers },
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', json: text ? JSON.parse(text) : undefined };
}

function assertStatusBody(r, status, statusName, reason) {
  assert.equal(r.status, status, `HTTP status, body ${JSON.stringify(r.json)}`);
  assert.equal(r.json?.error?.code, status, 'error.code repeats the HTTP status');
  assert.equal(r.json?.error?.status, statusName, 'error.status is the google.rpc.Code name');
  if (reason) {
    const info = r.json.error.details.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo');
    assert.equal(info?.reason, reason, 'ErrorInfo reason');
    assert.equal(info?.domain, 'a2a-protocol.org', 'ErrorInfo domain');
  }
}

describe(`A2A v1.0 HTTP+JSON interop against ${BASE_URL}`, () => {
  let conversation;
  let completed;

  test('discovery [spec 8.3.2]: the card offers HTTP+JSON 1.0 and the client picks the REST transport', T, () => {
    const rest = card.supportedInterfaces.find((i) => i.protocolBinding === 'HTTP+JSON');
    assert.ok(rest, 'supportedInterfaces must contain an HTTP+JSON interface');
    assert.equal(rest.protocolVersion, '1.0');
    assert.equal(client.transport.protocolName, 'HTTP+JSON');
  });

  test('SendMessage blocking [spec 3.2.2, 11.3 POST /message:send]: an empty text stops at INPUT_REQUIRED, the reply completes the same task', T, async () => {
    const asked = await client.sendMessage(sendRequest(userMessage({ text: '' })), opts());
    assert.ok(isTask(asked), 'a Task');
    assertState(asked, TaskState.TASK_STATE_INPUT_REQUIRED, 'empty-text send');
    conversation = { taskId: asked.id, contextId: asked.contextId };
    const done = await client.sendMessage(sendRequest(userMessage({ text: TEXT, ...conversation })), opts());
    assert.equal(done.id, asked.id, 'the reply continues the same task');
    assertState(done, TaskState.TASK_STATE_COMPLETED, 'continued task');
    assert.equal(done.artifacts[0]?.artifactId, 'text-stats');
    completed = done;
  });

  test('SendStreamingMessage [spec 3.1.2, 11.7 POST /message:stream]: the Task first, then WORKING, the artifact and COMPLETED', T, async () => {
    const events = await collect(client.sendMessageStream(sendRequest(userMessage({ text: TEXT })), opts()));
    assert.deepEqual(events.map(kindOf), ['task', 'statusUpdate', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
    assertState(events.at(-1).payload.value, TaskState.TASK_STATE_COMPLETED, 'last event');
  });

  test('GetTask [spec 3.1.3, 11.3 GET /tasks/{id}]: the bare Task; historyLength in the query limits the history', T, async () => {
    const task = await client.getTask({ id: completed.id }, opts());
    assert.equal(task.id, completed.id);
    assertState(task, TaskState.TASK_STATE_COMPLETED, 'GetTask');
    const none = await client.getTask({ id: completed.id, historyLength: 0 }, opts());
    assert.equal(none.history.length, 0, 'historyLength 0 leaves the history out');
  });

  test('ListTasks [spec 3.1.4, 11.3 GET /tasks]: the tasks of one context by query parameters', T, async () => {
    const list = await client.listTasks(ListTasksRequest.fromJSON({ contextId: conversation.contextId }), opts());
    assert.deepEqual(list.tasks.map((t) => t.id), [conversation.taskId]);
    assert.equal(list.totalSize, 1);
    assert.equal(list.nextPageToken, '');
  });

  test('CancelTask [spec 3.1.5, 11.3 POST /tasks/{id}:cancel]: a working task ends CANCELED', T, async () => {
    const started = await client.sendMessage(sendRequest(userMessage({ text: TEXT }), { returnImmediately: true }), opts());
    const canceled = await client.cancelTask({ id: started.id }, opts());
    assert.equal(canceled.id, started.id);
    assertState(canceled, TaskState.TASK_STATE_CANCELED, 'CancelTask result');
  });

  test('SubscribeToTask [spec 3.1.6, 11.3 POST /tasks/{id}:subscribe]: a snapshot of the working task, then its events to COMPLETED', T, async () => {
    const started = await client.sendMessage(sendRequest(userMessage({ text: TEXT }), { returnImmediately: true }), opts());
    const events = await collect(client.resubscribeTask({ id: started.id }, opts()));
    assert.equal(kindOf(events[0]), 'task', 'the first event is the Task');
    assert.equal(events[0].payload.value.id, started.id);
    assertState(events.at(-1).payload.value, TaskState.TASK_STATE_COMPLETED, 'last event');
  });

  test('errors [spec 1.0.0 5.4, 11.6]: TaskNotFound 404, TaskNotCancelable 409, UnsupportedOperation 400, each named by the SDK from its ErrorInfo', T, async () => {
    await expectRestError(() => client.getTask({ id: `no-such-${crypto.randomUUID()}` }, opts()), TaskNotFoundError, 404);
    // The SDK's own server would answer 400 here (A2A 1.0.1); its client names the class from the reason.
    await expectRestError(() => client.cancelTask({ id: completed.id }, opts()), TaskNotCancelableError, 409);
    await expectRestError(
      () => client.sendMessage(sendRequest(userMessage({ text: TEXT, taskId: completed.id })), opts()),
      UnsupportedOperationError,
      400,
    );
    await expectRestError(() => collect(client.resubscribeTask({ id: completed.id }, opts())), UnsupportedOperationError, 400);
  });

  test('error body [spec 11.6]: a google.rpc.Status with code, status and an ErrorInfo in details, as application/json', T, async () => {
    const r = await raw('GET', `/tasks/no-such-${crypto.randomUUID()}`);
    assertStatusBody(r, 404, 'NOT_FOUND', 'TASK_NOT_FOUND');
    assert.match(r.type, /^application\/json/, 'A2A 1.0.0 11.1: responses are application/json');
  });

  test('Content-Type [spec 1.0.0 11.1]: answers are application/json; a request in application/a2a+json (1.0.1) is read too', T, async () => {
    const r = await raw('GET', `/tasks/${completed.id}`);
    assert.equal(r.status, 200);
    assert.match(r.type, /^application\/json/);
    const a2aJson = await raw('POST', `/tasks/${completed.id}:cancel`, '{}', { 'Content-Type': 'application/a2a+json' });
    assertStatusBody(a2aJson, 409, 'FAILED_PRECONDITION', 'TASK_NOT_CANCELABLE');
  });

  test('bad input [spec 1.0.0 5.4, 11.6]: a body that is not JSON (400), a wrong Content-Type (415), a missing A2A-Version (400)', T, async () => {
    assertStatusBody(await raw('POST', '/message:send', '{"message":', { 'Content-Type': 'application/json' }),
      400, 'INVALID_ARGUMENT', 'INVALID_PARAMS');
    assertStatusBody(await raw('POST', '/message:send', 'hello', { 'Content-Type': 'text/plain' }),
      415, 'INVALID_ARGUMENT', 'CONTENT_TYPE_NOT_SUPPORTED');
    const noVersion = await fetch(`${restUrl}/tasks/x`);
    assertStatusBody({ status: noVersion.status, json: await noVersion.json() }, 400, 'FAILED_PRECONDITION', 'VERSION_NOT_SUPPORTED');
  });
});
