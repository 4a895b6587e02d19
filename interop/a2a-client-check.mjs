// Interop check: drives ANY "Revisor" A2A v1.0 server with the official
// @a2a-js/sdk CLIENT (ClientFactory.createFromUrl + the JSON-RPC transport) and
// asserts protocol rules plus the Revisor semantics. It relies only on the A2A
// protocol and the Revisor contract, never on a particular implementation.
//
// Base URL (the server root that serves /.well-known/agent-card.json):
//   A2A_URL=http://127.0.0.1:41251 node --test a2a-client-check.mjs
//   node a2a-client-check.mjs http://127.0.0.1:41251
// Default: http://127.0.0.1:41251
//
// Needs a server that pauses between steps (STEP_DELAY_MS around 300 or more):
// the cancel and resubscribe checks must catch a task while it is still running.
//
// Output is node:test's TAP/spec report ("# pass N", "# fail N"); the exit code
// is non-zero when any check fails.

import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ListTasksRequest,
  Role,
  SendMessageRequest,
  TaskState,
} from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import {
  A2AError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';

const argUrl = process.argv.slice(2).find((a) => /^https?:\/\//.test(a));
const BASE_URL = process.env.A2A_URL || argUrl || 'http://127.0.0.1:41251';
const T = { timeout: 15_000 }; // per test; the whole file normally takes well under 10 s
const STREAM_TIMEOUT_MS = 10_000;

// --------------------------------------------------------------------------
// Helpers
// --------------------------------------------------------------------------

/**
 * fetch wrapper handed to the SDK's JSON-RPC transport: records the raw JSON
 * body of every non-streaming JSON-RPC answer by method, so that checks about
 * field *presence* (which the SDK's fromJSON hides behind defaults) can look at
 * the wire.
 */
const rawByMethod = new Map();
async function recordingFetch(input, init) {
  const res = await fetch(input, init);
  try {
    const method = init?.body ? JSON.parse(init.body).method : undefined;
    const type = res.headers.get('content-type') ?? '';
    if (method && type.startsWith('application/json')) {
      rawByMethod.set(method, JSON.parse(await res.clone().text()));
    }
  } catch {
    // recording is best effort; the SDK reports real failures itself
  }
  return res;
}

let seq = 0;
function userMessage({ text, parts, taskId, contextId } = {}) {
  return {
    messageId: `check-${process.pid}-${Date.now()}-${++seq}`,
    role: 'ROLE_USER',
    parts: parts ?? [{ text }],
    ...(taskId ? { taskId } : {}),
    ...(contextId ? { contextId } : {}),
  };
}

/** Builds a complete SDK SendMessageRequest from ProtoJSON (so every field has its default). */
function sendRequest(message, configuration) {
  return SendMessageRequest.fromJSON({ message, ...(configuration ? { configuration } : {}) });
}

const stateName = (s) => TaskState[s] ?? String(s);
const isTask = (r) => r && typeof r === 'object' && 'status' in r && !('messageId' in r);
const textOf = (part) => (part?.content?.$case === 'text' ? part.content.value : undefined);
const dataOf = (part) => (part?.content?.$case === 'data' ? part.content.value : undefined);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function assertState(task, expected, what) {
  assert.equal(
    stateName(task?.status?.state),
    stateName(expected),
    `${what}: expected ${stateName(expected)}, got ${stateName(task?.status?.state)}`,
  );
}

/** Collects every event of an SDK stream (sendMessageStream / resubscribeTask). */
async function collect(stream) {
  const events = [];
  for await (const ev of stream) events.push(ev);
  return events;
}

const opts = () => ({ signal: AbortSignal.timeout(STREAM_TIMEOUT_MS) });

/** Runs fn, expects it to reject with an SDK JSON-RPC error of the given code. */
async function expectRpcError(fn, code, errorClass) {
  let caught;
  try {
    await fn();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught, `expected a JSON-RPC error ${code}, but the call succeeded`);
  assert.ok(caught instanceof A2AError, `expected an A2AError, got ${caught?.name}: ${caught?.message}`);
  assert.equal(caught.transport, 'jsonrpc', 'error should come from the JSON-RPC transport');
  assert.equal(caught.envelopeCode, code, `JSON-RPC error.code: expected ${code}, got ${caught.envelopeCode} (${caught.message})`);
  if (errorClass) assert.ok(caught instanceof errorClass, `expected ${errorClass.name}, got ${caught.name}`);
  return caught;
}

/** Blocking send of a text; returns the Task once it reached a terminal/interrupted state. */
async function runToCompletion(text, contextId) {
  const result = await client.sendMessage(sendRequest(userMessage({ text, contextId })), opts());
  assert.ok(isTask(result), 'SendMessage should answer with a Task');
  assertState(result, TaskState.TASK_STATE_COMPLETED, 'blocking SendMessage result');
  return result;
}

// --------------------------------------------------------------------------
// Shared state
// --------------------------------------------------------------------------

let client;
let card;
let conversation; // { taskId, contextId } of the multi-turn task (INPUT_REQUIRED -> COMPLETED)

let connecting;
/**
 * Discovery happens once, lazily, so that a server that cannot be reached makes
 * every check fail (counted in "# fail N") instead of cancelling them.
 */
function connect() {
  connecting ??= (async () => {
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl: recordingFetch })],
        preferredTransports: ['JSONRPC'],
      }),
    );
    client = await factory.createFromUrl(BASE_URL);
    card = await client.getAgentCard();
  })();
  return connecting;
}

beforeEach(() => connect());

// --------------------------------------------------------------------------
// Checks
// --------------------------------------------------------------------------

describe(`A2A v1.0 Revisor interop against ${BASE_URL}`, () => {
  test('discovery [spec 8.2, 8.3]: createFromUrl reads /.well-known/agent-card.json; card names Revisor, declares streaming and a JSONRPC 1.0 interface', T, () => {
    assert.ok(client, 'ClientFactory.createFromUrl should build a client');
    assert.equal(typeof card.name, 'string');
    assert.match(card.name, /Revisor/, `card.name should name the Revisor agent, got ${JSON.stringify(card.name)}`);
    assert.equal(card.capabilities?.streaming, true, 'capabilities.streaming must be true');
    assert.equal(card.capabilities?.pushNotifications, true, 'Legate sends push notifications (README "Push notifications")');
    const jsonrpc = (card.supportedInterfaces ?? []).filter((i) => i.protocolBinding === 'JSONRPC');
    assert.ok(jsonrpc.length > 0, 'supportedInterfaces must contain a JSONRPC interface');
    assert.ok(jsonrpc.some((i) => i.protocolVersion === '1.0'), 'the JSONRPC interface must declare protocolVersion "1.0"');
    assert.ok(jsonrpc.every((i) => /^https?:\/\//.test(i.url)), 'interface url must be an absolute URL');
    assert.ok((card.skills ?? []).some((s) => s.id === 'text_stats'), 'card must list the text_stats skill');
    assert.equal(client.transport.protocolName, 'JSONRPC', 'the client should have picked the JSON-RPC transport');
  });

  test('SendMessage blocking default [spec 3.2.2]: a message with empty text returns the Task in TASK_STATE_INPUT_REQUIRED with an agent status message', T, async () => {
    const result = await client.sendMessage(sendRequest(userMessage({ text: '' })), opts());
    assert.ok(isTask(result), 'SendMessage should answer with a Task');
    assert.ok(result.id, 'server must generate a task id');
    assert.ok(result.contextId, 'server must generate (and return) a contextId');
    assertState(result, TaskState.TASK_STATE_INPUT_REQUIRED, 'empty-text send');
    const msg = result.status.message;
    assert.ok(msg, 'INPUT_REQUIRED status must carry a message asking for input');
    assert.equal(msg.role, Role.ROLE_AGENT, 'status message role must be ROLE_AGENT');
    assert.ok(msg.parts.some((p) => (textOf(p) ?? '').trim() !== ''), 'status message must contain a non-empty text part');
    conversation = { taskId: result.id, contextId: result.contextId };
  });

  test('SendMessage continuation [spec 9.1]: replying with the same taskId+contextId resumes the INPUT_REQUIRED task to TASK_STATE_COMPLETED with the text-stats artifact', T, async () => {
    assert.ok(conversation, 'needs the INPUT_REQUIRED task from the previous check');
    const reply = userMessage({ text: 'The quick brown fox. It jumps!', ...conversation });
    const result = await client.sendMessage(sendRequest(reply), opts());
    assert.ok(isTask(result), 'SendMessage should answer with a Task');
    assert.equal(result.id, conversation.taskId, 'the reply must continue the same task');
    assert.equal(result.contextId, conversation.contextId, 'contextId must be kept');
    assertState(result, TaskState.TASK_STATE_COMPLETED, 'continued task');

    assert.equal(result.artifacts.length, 1, 'exactly one artifact');
    const [artifact] = result.artifacts;
    assert.equal(artifact.artifactId, 'text-stats');
    assert.equal(artifact.name, 'text-stats');
    assert.equal(artifact.parts.length, 2, 'artifact has a text part and a data part');
    assert.equal(textOf(artifact.parts[0]), 'Words: 6, characters: 30, sentences: 2.');
    const data = dataOf(artifact.parts[1]);
    assert.ok(data && typeof data === 'object', 'second part must be a data part holding an object');
    // "The quick brown fox. It jumps!": tokens The|quick|brown|fox.|It|jumps! -> 6 words,
    // 30 UTF-16 units, 2 sentences, lengths 3+5+5+4+2+6=25 -> 25/6 = 4.17,
    // keys longer than 3 chars in first-seen order: quick, brown, jumps (each once).
    assert.equal(data.words, 6);
    assert.equal(data.characters, 30);
    assert.equal(data.sentences, 2);
    assert.ok(Math.abs(data.averageWordLength - 4.17) < 0.005, `averageWordLength ~4.17, got ${data.averageWordLength}`);
    assert.deepEqual(data.topWords, [
      { word: 'quick', count: 1 },
      { word: 'brown', count: 1 },
      { word: 'jumps', count: 1 },
    ]);
  });

  test('Revisor semantics: a message with only a data part (no text) also goes to TASK_STATE_INPUT_REQUIRED', T, async () => {
    const msg = userMessage({ parts: [{ data: { hello: 'world' }, mediaType: 'application/json' }] });
    const result = await client.sendMessage(sendRequest(msg), opts());
    assert.ok(isTask(result), 'SendMessage should answer with a Task');
    assertState(result, TaskState.TASK_STATE_INPUT_REQUIRED, 'data-only send');
    assert.equal(result.status.message?.role, Role.ROLE_AGENT);
  });

  test('SendStreamingMessage [spec 3.1.2, 9.2]: Task(SUBMITTED) first, then WORKING status updates, the artifact update, and a final COMPLETED status update; same ids throughout; stream ends at COMPLETED', T, async () => {
    const events = await collect(
      client.sendMessageStream(sendRequest(userMessage({ text: 'One. Two! Three? Four' })), opts()),
    );
    const kinds = events.map((e) => e.payload?.$case);
    assert.ok(events.length >= 4, `expected at least 4 events, got ${kinds.join(',')}`);

    assert.equal(kinds[0], 'task', `first event must be a Task, got ${kinds[0]}`);
    const task = events[0].payload.value;
    assertState(task, TaskState.TASK_STATE_SUBMITTED, 'first streamed Task');
    const { id: taskId, contextId } = task;
    assert.ok(taskId && contextId);

    for (const [i, ev] of events.slice(1).entries()) {
      const v = ev.payload.value;
      const evTaskId = ev.payload.$case === 'task' ? v.id : v.taskId;
      assert.equal(evTaskId, taskId, `event ${i + 1} (${ev.payload.$case}) taskId`);
      assert.equal(v.contextId, contextId, `event ${i + 1} (${ev.payload.$case}) contextId`);
    }

    const working = events.filter(
      (e) => e.payload.$case === 'statusUpdate' && e.payload.value.status?.state === TaskState.TASK_STATE_WORKING,
    );
    assert.ok(working.length >= 1, 'at least one WORKING status update');
    assert.ok(
      working.some((e) => e.payload.value.status.message?.role === Role.ROLE_AGENT),
      'WORKING updates carry an agent progress message',
    );

    const artifactIdx = kinds.indexOf('artifactUpdate');
    assert.ok(artifactIdx > 0, 'an artifact update must be streamed');
    const artifactEvent = events[artifactIdx].payload.value;
    assert.equal(artifactEvent.artifact?.artifactId, 'text-stats');
    assert.equal(artifactEvent.lastChunk, true, 'artifact update has lastChunk=true');
    assert.equal(textOf(artifactEvent.artifact.parts[0]), 'Words: 4, characters: 21, sentences: 4.');

    const last = events.at(-1);
    assert.equal(last.payload.$case, 'statusUpdate', 'last event must be a status update');
    assertState(last.payload.value, TaskState.TASK_STATE_COMPLETED, 'last streamed status');
    assert.ok(artifactIdx < events.length - 1, 'artifact update comes before the final COMPLETED');
    const completedCount = events.filter(
      (e) => e.payload.$case === 'statusUpdate' && e.payload.value.status?.state === TaskState.TASK_STATE_COMPLETED,
    ).length;
    assert.equal(completedCount, 1, 'exactly one COMPLETED update, and nothing after it');
  });

  test('GetTask [spec 3.1.3, 3.2.4]: returns the stored COMPLETED task with its artifact; historyLength 0 => no history; historyLength 1 => at most 1 message', T, async () => {
    assert.ok(conversation, 'needs the completed task from the continuation check');
    const full = await client.getTask({ id: conversation.taskId }, opts());
    assert.equal(full.id, conversation.taskId);
    assert.equal(full.contextId, conversation.contextId);
    assertState(full, TaskState.TASK_STATE_COMPLETED, 'GetTask');
    assert.equal(full.artifacts.length, 1, 'stored task keeps its single artifact');
    assert.equal(full.artifacts[0].artifactId, 'text-stats');

    const none = await client.getTask({ id: conversation.taskId, historyLength: 0 }, opts());
    assert.equal(none.history.length, 0, 'historyLength 0 must omit history');
    const raw = rawByMethod.get('GetTask')?.result;
    if (raw) assert.ok(!raw.history || raw.history.length === 0, 'wire: no history entries with historyLength 0');

    const one = await client.getTask({ id: conversation.taskId, historyLength: 1 }, opts());
    assert.ok(one.history.length <= 1, `historyLength 1 must return at most 1 message, got ${one.history.length}`);
    assertState(one, TaskState.TASK_STATE_COMPLETED, 'GetTask historyLength 1');
  });

  test('CancelTask [spec 3.1.5]: cancelling a running task (sent with returnImmediately=true) returns it in TASK_STATE_CANCELED, and it stays canceled', T, async () => {
    const started = await client.sendMessage(
      sendRequest(userMessage({ text: 'Please take your time with this one.' }), { returnImmediately: true }),
      opts(),
    );
    assert.ok(isTask(started), 'returnImmediately send should answer with a Task');
    const state = started.status?.state;
    assert.ok(
      state === TaskState.TASK_STATE_SUBMITTED || state === TaskState.TASK_STATE_WORKING,
      `returnImmediately must return before the task finishes, got ${stateName(state)}`,
    );

    const canceled = await client.cancelTask({ id: started.id }, opts());
    assert.equal(canceled.id, started.id);
    assertState(canceled, TaskState.TASK_STATE_CANCELED, 'CancelTask result');

    await sleep(800); // longer than the remaining steps of a STEP_DELAY_MS=300 server
    const later = await client.getTask({ id: started.id }, opts());
    assertState(later, TaskState.TASK_STATE_CANCELED, 'task after cancellation');
    assert.equal(later.artifacts.length, 0, 'a task canceled mid-run produces no artifact');
  });

  test('CancelTask on a terminal (COMPLETED) task [spec 3.1.5]: fails with TaskNotCancelableError, JSON-RPC code -32002', T, async () => {
    assert.ok(conversation, 'needs the completed task');
    await expectRpcError(() => client.cancelTask({ id: conversation.taskId }, opts()), -32002, TaskNotCancelableError);
  });

  test('GetTask on an unknown id [spec 3.1.3]: fails with TaskNotFoundError, JSON-RPC code -32001', T, async () => {
    await expectRpcError(
      () => client.getTask({ id: `no-such-task-${crypto.randomUUID()}` }, opts()),
      -32001,
      TaskNotFoundError,
    );
  });

  test('SendMessage into a terminal (COMPLETED) task [spec 3.1.1]: fails with UnsupportedOperationError, JSON-RPC code -32004', T, async () => {
    assert.ok(conversation, 'needs the completed task');
    const msg = userMessage({ text: 'One more thing.', ...conversation });
    await expectRpcError(() => client.sendMessage(sendRequest(msg), opts()), -32004, UnsupportedOperationError);
  });

  test('ListTasks [spec 3.1.4]: contextId filter returns only that conversation; nextPageToken "" on the last page; pageSize/totalSize present; artifacts only with includeArtifacts; pageToken paging', T, async () => {
    const contextId = crypto.randomUUID(); // client-chosen conversation id, new tasks in it
    const first = await runToCompletion('Alpha beta gamma.', contextId);
    const second = await runToCompletion('Delta epsilon. Zeta!', contextId);
    assert.equal(first.contextId, contextId, 'server must keep the client-chosen contextId');
    assert.equal(second.contextId, contextId);
    assert.notEqual(first.id, second.id);

    const list = await client.listTasks(ListTasksRequest.fromJSON({ contextId }), opts());
    const raw = rawByMethod.get('ListTasks')?.result;
    assert.ok(raw, 'ListTasks must answer with a result object');
    assert.deepEqual(new Set(list.tasks.map((t) => t.id)), new Set([first.id, second.id]), 'exactly the two tasks of this context');
    assert.ok(list.tasks.every((t) => t.contextId === contextId), 'every task belongs to the filtered context');
    assert.equal(raw.nextPageToken, '', 'wire: nextPageToken must be present and "" on the last page');
    assert.equal(typeof raw.pageSize, 'number', 'wire: pageSize must be present');
    assert.equal(raw.totalSize, 2, 'wire: totalSize must be present and count the matching tasks');
    for (const t of raw.tasks) {
      assert.ok(!('artifacts' in t), 'wire: artifacts must be absent unless includeArtifacts=true');
    }

    await client.listTasks(ListTasksRequest.fromJSON({ contextId, includeArtifacts: true }), opts());
    const rawWith = rawByMethod.get('ListTasks').result;
    assert.equal(rawWith.tasks.length, 2);
    for (const t of rawWith.tasks) {
      assert.ok(Array.isArray(t.artifacts) && t.artifacts.length === 1, 'wire: includeArtifacts=true returns the artifact');
      assert.equal(t.artifacts[0].artifactId, 'text-stats');
    }

    const page1 = await client.listTasks(ListTasksRequest.fromJSON({ contextId, pageSize: 1 }), opts());
    assert.equal(page1.tasks.length, 1, 'pageSize 1 returns one task');
    assert.equal(page1.totalSize, 2, 'totalSize counts before pagination');
    assert.notEqual(page1.nextPageToken, '', 'a further page exists, so nextPageToken is non-empty');
    const page2 = await client.listTasks(
      ListTasksRequest.fromJSON({ contextId, pageSize: 1, pageToken: page1.nextPageToken }),
      opts(),
    );
    assert.equal(page2.tasks.length, 1, 'second page returns the other task');
    assert.notEqual(page2.tasks[0].id, page1.tasks[0].id, 'pages do not repeat tasks');
    assert.equal(rawByMethod.get('ListTasks').result.nextPageToken, '', 'wire: last page has nextPageToken ""');
  });

  test('SubscribeToTask (client.resubscribeTask) [spec 3.1.6]: on a live task the first event is a Task snapshot, later a COMPLETED status update ends the stream', T, async () => {
    const started = await client.sendMessage(
      sendRequest(userMessage({ text: 'Resubscribe to me. Please!' }), { returnImmediately: true }),
      opts(),
    );
    assert.ok(isTask(started), 'returnImmediately send should answer with a Task');

    const events = await collect(client.resubscribeTask({ id: started.id }, opts()));
    assert.ok(events.length >= 2, `expected a snapshot and later events, got ${events.length}`);
    assert.equal(events[0].payload?.$case, 'task', 'first SubscribeToTask event must be a Task snapshot');
    const snapshot = events[0].payload.value;
    assert.equal(snapshot.id, started.id);
    assert.equal(snapshot.contextId, started.contextId);
    assert.ok(
      [TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING].includes(snapshot.status?.state),
      `snapshot of a live task should be SUBMITTED or WORKING, got ${stateName(snapshot.status?.state)}`,
    );
    const last = events.at(-1);
    assert.equal(last.payload?.$case, 'statusUpdate', 'stream ends with a status update');
    assert.equal(last.payload.value.taskId, started.id);
    assertState(last.payload.value, TaskState.TASK_STATE_COMPLETED, 'last subscribed event');
    const artifact = events.find((e) => e.payload?.$case === 'artifactUpdate');
    if (artifact) assert.equal(artifact.payload.value.artifact?.artifactId, 'text-stats');
  });

  test('SubscribeToTask on a terminal task [spec 3.1.6]: fails with UnsupportedOperationError, JSON-RPC code -32004', T, async () => {
    assert.ok(conversation, 'needs the completed task');
    await expectRpcError(
      () => collect(client.resubscribeTask({ id: conversation.taskId }, opts())),
      -32004,
      UnsupportedOperationError,
    );
  });
});
