// Interop check: an A2A v1.0 server that authenticates its callers, driven by the official
// @a2a-js/sdk CLIENT through the SDK's own authenticating fetch (createAuthenticatingFetchWithRetry).
// It checks what any such server must show (A2A §7, §3.3.2): the public card is readable without a
// credential and declares its schemes; a call without a credential is refused; each credential
// works; a second principal cannot see or touch the first one's task.
//
//   A2A_URL=http://127.0.0.1:41251 ALICE_TOKEN=... BOB_TOKEN=... [BOB_API_KEY=... API_KEY_HEADER=X-API-Key]
//   [CAROL_JWT=...] node --test a2a-auth-check.mjs
//
// Output is node:test's TAP/spec report ("# pass N", "# fail N"); the exit code is non-zero when
// any check fails.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ListTasksRequest, SendMessageRequest, TaskState } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  createAuthenticatingFetchWithRetry,
} from '@a2a-js/sdk/client';
import { A2AError, TaskNotFoundError } from '@a2a-js/sdk/errors';

const BASE_URL = process.env.A2A_URL || 'http://127.0.0.1:41251';
const T = { timeout: 15_000 };
const opts = () => ({ signal: AbortSignal.timeout(10_000) });

/** A client whose every request carries these headers, through the SDK's authenticating fetch. */
async function clientWith(headers) {
  const authFetch = createAuthenticatingFetchWithRetry(fetch, {
    headers: async () => headers,
    shouldRetryWithHeaders: async () => undefined,
  });
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: authFetch })],
    }),
  );
  return factory.createFromUrl(BASE_URL);
}

let seq = 0;
function send(text) {
  return SendMessageRequest.fromJSON({
    message: { messageId: `auth-check-${process.pid}-${++seq}`, role: 'ROLE_USER', parts: [{ text }] },
  });
}

async function rejection(fn) {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  assert.fail('expected the call to be refused, but it succeeded');
}

describe(`A2A server with authentication at ${BASE_URL}`, () => {
  test('the public card needs no credential and declares the schemes [A2A 7, 8.2]', T, async () => {
    const res = await fetch(new URL('/.well-known/agent-card.json', BASE_URL));
    assert.equal(res.status, 200);
    const card = await res.json();
    assert.ok(card.securitySchemes && Object.keys(card.securitySchemes).length > 0, 'securitySchemes declared');
    assert.ok(Array.isArray(card.securityRequirements) && card.securityRequirements.length > 0, 'securityRequirements declared');
  });

  test('a call without a credential is refused with 401 / -32000 [A2A 3.3.2]', T, async () => {
    const anonymous = await clientWith({});
    const err = await rejection(() => anonymous.sendMessage(send('hello'), opts()));
    const said = `${err?.name}: ${err?.message}`;
    assert.ok(err instanceof A2AError ? err.envelopeCode === -32000 : /401|-32000/.test(said), said);
    const wrong = await clientWith({ Authorization: 'Bearer not-a-token' });
    await rejection(() => wrong.getTask({ id: 'anything' }, opts()));
  });

  test('a bearer token works for every kind of call, streams included', T, async () => {
    const alice = await clientWith({ Authorization: `Bearer ${process.env.ALICE_TOKEN}` });
    const task = await alice.sendMessage(send('One. Two!'), opts());
    assert.equal(TaskState[task.status.state], 'TASK_STATE_COMPLETED');
    const events = [];
    for await (const ev of alice.sendMessageStream(send('Three. Four?'), opts())) events.push(ev);
    assert.ok(events.length >= 2, `a stream of events, got ${events.length}`);
    const again = await alice.getTask({ id: task.id }, opts());
    assert.equal(again.id, task.id);
  });

  test('a second principal finds nothing of the first one\'s [A2A 3.3.2: not found, as a missing task]', T, async () => {
    const alice = await clientWith({ Authorization: `Bearer ${process.env.ALICE_TOKEN}` });
    const bob = await clientWith({ Authorization: `Bearer ${process.env.BOB_TOKEN}` });
    const task = await alice.sendMessage(send('Mine. All mine.'), opts());
    const got = await rejection(() => bob.getTask({ id: task.id }, opts()));
    assert.ok(got instanceof TaskNotFoundError, `GetTask: ${got?.name}: ${got?.message}`);
    const canceled = await rejection(() => bob.cancelTask({ id: task.id }, opts()));
    assert.ok(canceled instanceof TaskNotFoundError, `CancelTask: ${canceled?.name}: ${canceled?.message}`);
    const listed = await bob.listTasks(ListTasksRequest.fromJSON({ contextId: task.contextId }), opts());
    assert.equal(listed.tasks.length, 0, 'ListTasks shows bob none of alice\'s tasks');
  });

  test('an API key in the header the card names works', T, async (t) => {
    if (!process.env.BOB_API_KEY) return t.skip('BOB_API_KEY not set');
    const bob = await clientWith({ [process.env.API_KEY_HEADER || 'X-API-Key']: process.env.BOB_API_KEY });
    const task = await bob.sendMessage(send('Keys too.'), opts());
    assert.equal(TaskState[task.status.state], 'TASK_STATE_COMPLETED');
  });

  test('a JWT access token works as a bearer token', T, async (t) => {
    if (!process.env.CAROL_JWT) return t.skip('CAROL_JWT not set');
    const carol = await clientWith({ Authorization: `Bearer ${process.env.CAROL_JWT}` });
    const task = await carol.sendMessage(send('Signed.'), opts());
    assert.equal(TaskState[task.status.state], 'TASK_STATE_COMPLETED');
  });
});
