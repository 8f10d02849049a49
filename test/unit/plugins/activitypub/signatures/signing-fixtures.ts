/** Keys, a sender and a receiver's view of signed requests, shared by the signature tests. */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { KeyResolver, VerifiableRequest } from '../../../../../src/plugins/activitypub/signatures/HttpSignatureVerifier';
import { HttpSigner } from '../../../../../src/plugins/activitypub/signatures/HttpSigner';
import type { SignatureScheme } from '../../../../../src/plugins/activitypub/signatures/SignatureCommon';

export const ACTOR = 'https://remote.example/users/alice';
export const KEY_ID = `${ACTOR}#main-key`;
export const INBOX = 'https://local.example/users/bob/inbox';
export const NOW = Date.parse('2025-06-01T12:00:00Z');
export const BODY = Buffer.from(JSON.stringify({ type: 'Create', actor: ACTOR, object: { type: 'Note', content: 'hi' } }));

export const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
export const otherRsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
export const ed = generateKeyPairSync('ed25519');

const signer = new HttpSigner();

export function resolverFor(publicKey: KeyObject, owner = ACTOR): KeyResolver & jest.Mock {
  return jest.fn(async (keyId: string) => (keyId === KEY_ID ? { publicKey, owner } : undefined)) as KeyResolver & jest.Mock;
}

/** Signs a request like a sender and returns it as the receiving server sees it. */
export function signedRequest(
  scheme: SignatureScheme,
  options: { method?: string; url?: string; body?: Buffer; privateKey?: KeyObject; now?: number; keyId?: string } = {},
): VerifiableRequest {
  const method = options.method ?? 'POST';
  const url = options.url ?? INBOX;
  const body = method === 'GET' ? undefined : (options.body ?? BODY);
  const headers: Record<string, string> = { 'Content-Type': 'application/activity+json', Host: new URL(url).host };
  const added = signer.sign(
    { method, url, headers, ...body === undefined ? {} : { body } },
    { keyId: options.keyId ?? KEY_ID, privateKey: options.privateKey ?? rsa.privateKey },
    scheme,
    { now: options.now ?? NOW },
  );
  const received: Record<string, string> = {};
  for (const [ name, value ] of Object.entries({ ...headers, ...added })) {
    received[name.toLowerCase()] = value;
  }
  return { method, url, headers: received, ...body === undefined ? {} : { body } };
}

export function withHeader(request: VerifiableRequest, name: string, value: string | undefined): VerifiableRequest {
  const headers = { ...request.headers, [name]: value };
  if (value === undefined) {
    delete headers[name];
  }
  return { ...request, headers };
}
