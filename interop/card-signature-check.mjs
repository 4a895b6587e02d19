// A signed Legate Agent Card checked by the official JavaScript SDK's own verifier
// (@a2a-js/sdk 1.2.0 verifyAgentCardSignature: JCS of the card without `signatures`, a JWS with a
// detached payload, the key found by `kid`). Run by a2a-server's CardSignatureInteropTest with
// A2A_URL set to a Legate agent started with a card signing key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verifyAgentCardSignature } from '@a2a-js/sdk';

const base = process.env.A2A_URL;
if (!base) {
  throw new Error('A2A_URL must name the agent to check');
}

// WebCrypto import parameters for each key type Legate signs with (ES256, RS256, EdDSA).
const IMPORT = {
  EC: { name: 'ECDSA', namedCurve: 'P-256' },
  RSA: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
  OKP: { name: 'Ed25519' },
};

async function getJson(path) {
  const response = await fetch(new URL(path, base));
  assert.equal(response.status, 200, `GET ${path}`);
  return response.json();
}

const card = await getJson('/.well-known/agent-card.json');
const jwks = await getJson('/.well-known/jwks.json');

// The SDK asks for the public key by the protected header's kid; it is looked up in the agent's JWKS.
const verify = verifyAgentCardSignature(async (kid) => {
  const jwk = jwks.keys.find((k) => k.kid === kid);
  if (!jwk) {
    throw new Error(`no key ${kid} in the JWKS`);
  }
  return crypto.subtle.importKey('jwk', jwk, IMPORT[jwk.kty], false, ['verify']);
});

test('A2A §8.4: the official SDK verifies the card as Legate signed it', async () => {
  assert.ok(card.signatures?.length >= 1, 'the card carries signatures');
  await verify(card);
});

test('A2A §8.4: the official SDK refuses the card once a field was changed', async () => {
  const tampered = structuredClone(card);
  tampered.description = `${tampered.description} (changed)`;
  await assert.rejects(verify(tampered), /No valid signatures/);
});

test('A2A §8.4: the official SDK refuses the card without its signatures', async () => {
  const unsigned = structuredClone(card);
  delete unsigned.signatures;
  await assert.rejects(verify(unsigned), /No signatures/);
});
