// Interop check: push notifications from an A2A v1.0 server to a webhook, configured by the official
// @a2a-js/sdk CLIENT (A2A §3.1.7-3.1.10, §4.3): a configuration inside SendMessage's configuration
// and one made with CreateTaskPushNotificationConfig; the webhook (a node:http server on loopback)
// must receive every event of the task in order, as StreamResponse JSON (application/a2a+json),
// with the configuration's token or Authorization; each delivery's JWT (X-Legate-Push-Signature)
// must verify against the server's /.well-known/jwks.json with WebCrypto, and sign the body's hash.
//
//   A2A_URL=http://127.0.0.1:41241 PUSH_PORT=41244 node --test push-check.mjs
//
// The server's agent is Legate's push test agent: "steps N" works N steps, then an artifact and
// COMPLETED; "ask" stops at INPUT_REQUIRED. Output is node:test's report ("# pass N", "# fail N").

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createHash, webcrypto } from 'node:crypto';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';

const BASE_URL = process.env.A2A_URL || 'http://127.0.0.1:41241';
const PUSH_PORT = Number(process.env.PUSH_PORT || 41244);
const HOOK = `http://127.0.0.1:${PUSH_PORT}`;
const T = { timeout: 20_000 };
const opts = () => ({ signal: AbortSignal.timeout(10_000) });

/** path → deliveries, each { headers, raw, body }; waiters resolve when a path has enough. */
const received = new Map();
const waiters = [];
let server;

/** The deliveries to {@code path} once {@code enough(list)} holds for them; fails after 15 s. */
function until(path, enough, what) {
  return new Promise((resolve, reject) => {
    const check = () => {
      const got = received.get(path) || [];
      if (enough(got)) {
        resolve(got);
        return true;
      }
      return false;
    };
    if (check()) return;
    const timer = setTimeout(() => reject(new Error(`${path}: ${what} not seen in 15 s`)), 15_000);
    waiters.push(() => check() && (clearTimeout(timer), true));
  });
}

const deliveriesTo = (path, n) => until(path, (got) => got.length >= n, `${n} deliveries`).then((got) => got.slice(0, n));

const b64url = (s) => Buffer.from(s, 'base64url');

/** Checks a delivery's JWT against the agent's JWKS with WebCrypto; returns its claims. */
async function verifiedClaims(jwt, jwks) {
  const [h, p, s] = jwt.split('.');
  const header = JSON.parse(b64url(h).toString());
  assert.equal(header.alg, 'ES256', 'the agent signs with its P-256 key');
  const jwk = jwks.keys.find((k) => k.kid === header.kid);
  assert.ok(jwk, `key ${header.kid} is in the JWKS`);
  const key = await webcrypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  const ok = await webcrypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, b64url(s), Buffer.from(`${h}.${p}`));
  assert.ok(ok, 'the JWT signature verifies');
  return JSON.parse(b64url(p).toString());
}

function kind(body) {
  if (body.task) return 'task';
  if (body.artifactUpdate) return 'artifact';
  if (body.statusUpdate) return body.statusUpdate.status.state;
  return Object.keys(body).join(',');
}

let seq = 0;
function send(text, config) {
  return SendMessageRequest.fromJSON({
    message: { messageId: `push-check-${process.pid}-${++seq}`, role: 'ROLE_USER', parts: [{ text }] },
    ...(config ? { configuration: { taskPushNotificationConfig: config } } : {}),
  });
}

describe(`push notifications from ${BASE_URL} to ${HOOK}`, () => {
  before(async () => {
    server = http.createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const list = received.get(req.url) || [];
        list.push({ headers: req.headers, raw, body: JSON.parse(raw.toString('utf8')) });
        received.set(req.url, list);
        res.writeHead(200).end();
        for (const w of [...waiters]) if (w()) waiters.splice(waiters.indexOf(w), 1);
      });
    });
    await new Promise((resolve) => server.listen(PUSH_PORT, '127.0.0.1', resolve));
  });
  after(() => server.close());

  test('a configuration inside SendMessage gets every event in order, signed [A2A 3.1.1, 4.3]', T, async () => {
    const client = await new ClientFactory().createFromUrl(BASE_URL);
    assert.equal((await client.getAgentCard()).capabilities.pushNotifications, true);
    const task = await client.sendMessage(send('steps 2', { url: `${HOOK}/inline`, token: 'js-token' }), opts());
    assert.equal(TaskState[task.status.state], 'TASK_STATE_COMPLETED');
    const got = await deliveriesTo('/inline', 5);
    assert.deepEqual(got.map((d) => kind(d.body)),
      ['task', 'TASK_STATE_WORKING', 'TASK_STATE_WORKING', 'artifact', 'TASK_STATE_COMPLETED']);
    const jwks = await (await fetch(new URL('/.well-known/jwks.json', BASE_URL))).json();
    for (const d of got) {
      assert.equal(d.headers['content-type'], 'application/a2a+json');
      assert.equal(d.headers['x-a2a-notification-token'], 'js-token');
      const claims = await verifiedClaims(d.headers['x-legate-push-signature'], jwks);
      assert.equal(claims.taskId, task.id);
      assert.equal(claims.request_body_sha256, createHash('sha256').update(d.raw).digest('hex'));
    }
  });

  test('CreateTaskPushNotificationConfig, Get, List and Delete, and the Authorization sent [A2A 3.1.7-3.1.10]', T, async () => {
    const client = await new ClientFactory().createFromUrl(BASE_URL);
    const parked = await client.sendMessage(send('ask'), opts());
    assert.equal(TaskState[parked.status.state], 'TASK_STATE_INPUT_REQUIRED');
    const created = await client.createTaskPushNotificationConfig({
      taskId: parked.id, id: 'js-hook', url: `${HOOK}/created`,
      authentication: { scheme: 'Bearer', credentials: 'js-cred' },
    }, opts());
    assert.equal(created.id, 'js-hook');
    const fetched = await client.getTaskPushNotificationConfig({ taskId: parked.id, id: 'js-hook' }, opts());
    assert.equal(fetched.url, `${HOOK}/created`);
    const listed = await client.listTaskPushNotificationConfig({ taskId: parked.id }, opts());
    assert.deepEqual(listed.configs.map((c) => c.id), ['js-hook']);

    const done = await client.sendMessage(SendMessageRequest.fromJSON({
      message: { messageId: `push-check-${process.pid}-${++seq}`, role: 'ROLE_USER', taskId: parked.id,
        parts: [{ text: 'steps 1' }] },
    }), opts());
    assert.equal(TaskState[done.status.state], 'TASK_STATE_COMPLETED');
    // Only the events after the registration: the continuation's turn, up to COMPLETED.
    const got = await until('/created', (list) => list.some((d) => kind(d.body) === 'TASK_STATE_COMPLETED'),
      'the COMPLETED update');
    assert.equal(kind(got[got.length - 1].body), 'TASK_STATE_COMPLETED');
    for (const d of got) assert.equal(d.headers.authorization, 'Bearer js-cred');

    await client.deleteTaskPushNotificationConfig({ taskId: parked.id, id: 'js-hook' }, opts());
    const after = await client.listTaskPushNotificationConfig({ taskId: parked.id }, opts());
    assert.deepEqual(after.configs ?? [], []);
  });
});
