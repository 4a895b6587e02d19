// The official JavaScript SDK signs an Agent Card (@a2a-js/sdk 1.2.0 generateAgentCardSignature,
// ES256 with a fresh P-256 key) and prints {"card": ..., "jwk": ...} on one line, for
// a2a-server's CardSignatureInteropTest to verify with Legate's own verifier.
import { generateAgentCardSignature } from '@a2a-js/sdk';

const { privateKey, publicKey } = await crypto.subtle.generateKey(
  { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
const jwk = { ...(await crypto.subtle.exportKey('jwk', publicKey)), kid: 'js-sdk-key', alg: 'ES256', use: 'sig' };
delete jwk.key_ops;
delete jwk.ext;

const card = {
  name: 'Signed by the JS SDK',
  description: 'A card the official SDK signed.',
  supportedInterfaces: [{ url: 'http://127.0.0.1:1/', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  version: '1.2.0',
  capabilities: { streaming: true, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'Echo', description: 'Says it back.', tags: ['text'] }],
};

const signed = await generateAgentCardSignature(privateKey, { alg: 'ES256', kid: jwk.kid, typ: 'JOSE' })(card);
process.stdout.write(JSON.stringify({ card: signed, jwk }) + '\n');
