/**
 * Interop with an independent implementation: Fedify (@fedify/fedify, dev dependency only).
 * Fedify signs → HttpSignatureVerifier verifies; HttpSigner signs → Fedify's verifyRequest verifies.
 * Both schemes, RSA keys, a POST with a body and a GET.
 */
import { generateKeyPairSync, webcrypto } from 'node:crypto';
import { HttpSigner } from '../../../../../src/plugins/activitypub/signatures/HttpSigner';
import {
  HttpSignatureVerifier,
  type VerifiableRequest,
} from '../../../../../src/plugins/activitypub/signatures/HttpSignatureVerifier';
import type { SignatureScheme } from '../../../../../src/plugins/activitypub/signatures/SignatureCommon';

// Fedify's CJS build expects a browser-like navigator for its user agent string.
(globalThis as { navigator?: unknown }).navigator ??= { userAgent: 'node' };

interface RemoteDocument {
  contextUrl: string | null;
  document: unknown;
  documentUrl: string;
}
type DocumentLoader = (url: string) => Promise<RemoteDocument>;
type FedifySpec = 'draft-cavage-http-signatures-12' | 'rfc9421';
/** The part of Fedify's API used here (its own typings need the Temporal lib). */
interface Fedify {
  signRequest(request: Request, privateKey: CryptoKey, keyId: URL, options?: { spec?: FedifySpec }): Promise<Request>;
  verifyRequest(
    request: Request,
    options?: { documentLoader?: DocumentLoader; contextLoader?: DocumentLoader; spec?: FedifySpec },
  ): Promise<{ id: URL | null; ownerId: URL | null } | null>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fedify = require('@fedify/fedify') as Fedify;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { preloadedContexts } = require('@fedify/vocab-runtime') as { preloadedContexts: Record<string, unknown> };

const ACTOR = 'https://remote.example/users/alice';
const KEY_ID = `${ACTOR}#main-key`;
const INBOX = 'https://local.example/users/bob/inbox';
const BODY = JSON.stringify({
  '@context': 'https://www.w3.org/ns/activitystreams',
  type: 'Follow',
  actor: ACTOR,
  object: 'https://local.example/users/bob',
});

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicKeyPem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const SPECS: Record<SignatureScheme, FedifySpec> = { cavage: 'draft-cavage-http-signatures-12', rfc9421: 'rfc9421' };

/** Serves the actor document (with the key) and the JSON-LD contexts Fedify preloads; nothing else. */
const documentLoader: DocumentLoader = async (url) => {
  if (url in preloadedContexts) {
    return { contextUrl: null, document: preloadedContexts[url], documentUrl: url };
  }
  if (url === ACTOR || url === KEY_ID) {
    return {
      contextUrl: null,
      documentUrl: ACTOR,
      document: {
        '@context': [ 'https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1' ],
        id: ACTOR,
        type: 'Person',
        inbox: `${ACTOR}/inbox`,
        publicKey: { id: KEY_ID, type: 'Key', owner: ACTOR, publicKeyPem },
      },
    };
  }
  throw new Error(`Unexpected document load: ${url}`);
};

async function webCryptoPrivateKey(): Promise<CryptoKey> {
  const pkcs8 = keys.privateKey.export({ type: 'pkcs8', format: 'der' });
  return webcrypto.subtle.importKey('pkcs8', pkcs8, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, [ 'sign' ]) as Promise<CryptoKey>;
}

async function asReceived(request: Request): Promise<VerifiableRequest> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers.host ??= new URL(request.url).host;
  const body = Buffer.from(await request.arrayBuffer());
  return { method: request.method, url: request.url, headers, ...body.length > 0 ? { body } : {} };
}

const resolveKey = jest.fn(async (keyId: string) => (keyId === KEY_ID ? { publicKey: keys.publicKey, owner: ACTOR } : undefined));

describe.each([ 'cavage', 'rfc9421' ] as const)('interop with Fedify (%s)', (scheme) => {
  const verifier = new HttpSignatureVerifier();
  const signer = new HttpSigner();

  it('verifies a POST signed by Fedify', async () => {
    const request = new Request(INBOX, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body: BODY });
    const signed = await fedify.signRequest(request, await webCryptoPrivateKey(), new URL(KEY_ID), { spec: SPECS[scheme] });
    expect(signed.headers.has(scheme === 'cavage' ? 'digest' : 'content-digest')).toBe(true);
    const result = await verifier.verify(await asReceived(signed), resolveKey);
    expect(result).toEqual({ ok: true, keyId: KEY_ID, owner: ACTOR, scheme });
  });

  it('refuses a Fedify-signed POST whose body was changed', async () => {
    const request = new Request(INBOX, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body: BODY });
    const signed = await asReceived(await fedify.signRequest(request, await webCryptoPrivateKey(), new URL(KEY_ID), { spec: SPECS[scheme] }));
    const result = await verifier.verify({ ...signed, body: Buffer.from(BODY.replace('Follow', 'Block')) }, resolveKey);
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/Digest does not match/u) });
  });

  it('verifies a GET signed by Fedify', async () => {
    const request = new Request(`${ACTOR}/outbox`, { headers: { accept: 'application/activity+json' } });
    const signed = await fedify.signRequest(request, await webCryptoPrivateKey(), new URL(KEY_ID), { spec: SPECS[scheme] });
    await expect(verifier.verify(await asReceived(signed), resolveKey)).resolves.toMatchObject({ ok: true, scheme });
  });

  it('signs a POST that Fedify verifies', async () => {
    const headers: Record<string, string> = { 'content-type': 'application/activity+json' };
    const added = signer.sign({ method: 'POST', url: INBOX, headers, body: BODY }, { keyId: KEY_ID, privateKey: keys.privateKey }, scheme);
    const request = new Request(INBOX, { method: 'POST', headers: { ...headers, ...added }, body: BODY });
    const key = await fedify.verifyRequest(request, { documentLoader, contextLoader: documentLoader, spec: SPECS[scheme] });
    expect(key?.id?.href).toBe(KEY_ID);
    expect(key?.ownerId?.href).toBe(ACTOR);
  });

  it('signs a GET that Fedify verifies', async () => {
    const url = `${ACTOR}/outbox`;
    const added = signer.sign({ method: 'GET', url, headers: {} }, { keyId: KEY_ID, privateKey: keys.privateKey }, scheme);
    const key = await fedify.verifyRequest(new Request(url, { headers: added }), {
      documentLoader,
      contextLoader: documentLoader,
      spec: SPECS[scheme],
    });
    expect(key?.id?.href).toBe(KEY_ID);
  });

  it('signs nothing Fedify accepts once the body is changed', async () => {
    const added = signer.sign({ method: 'POST', url: INBOX, headers: {}, body: BODY }, { keyId: KEY_ID, privateKey: keys.privateKey }, scheme);
    const request = new Request(INBOX, { method: 'POST', headers: added, body: BODY.replace('Follow', 'Block') });
    await expect(fedify.verifyRequest(request, { documentLoader, contextLoader: documentLoader, spec: SPECS[scheme] })).resolves.toBeNull();
  });
});
