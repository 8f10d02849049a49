/**
 * Interop with an independent implementation: Fedify (@fedify/fedify, dev dependency only).
 * Fedify signs → HttpSignatureVerifier verifies; HttpSigner signs → Fedify's verifyRequest verifies.
 * Both schemes, RSA keys, a POST with a body and a GET.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import { HttpSigner } from '../../../../../src/plugins/activitypub/signatures/HttpSigner';
import {
  HttpSignatureVerifier,
  type VerifiableRequest,
} from '../../../../../src/plugins/activitypub/signatures/HttpSignatureVerifier';
import type { SignatureScheme } from '../../../../../src/plugins/activitypub/signatures/SignatureCommon';

type FedifySpec = 'draft-cavage-http-signatures-12' | 'rfc9421';
interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Fedify's dependencies are ESM-only, which jest's CommonJS runtime cannot require, so Fedify
 * runs in a plain node process (fedify-worker.js) that answers one JSON line per request.
 */
class FedifyWorker {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<number, (answer: Record<string, unknown>) => void>();
  private nextId = 0;

  public constructor() {
    this.child = spawn(process.execPath, [ path.join(__dirname, 'fedify-worker.js') ], { cwd: path.join(__dirname, '../../../../..') });
    readline.createInterface({ input: this.child.stdout }).on('line', (line) => {
      const answer = JSON.parse(line) as Record<string, unknown> & { id: number };
      this.pending.get(answer.id)?.(answer);
      this.pending.delete(answer.id);
    });
  }

  public async sign(spec: FedifySpec, request: WireRequest, keyId: string, privateKeyPem: string): Promise<Record<string, string>> {
    const answer = await this.call({ op: 'sign', spec, ...request, keyId, privateKeyPem });
    return answer.headers as Record<string, string>;
  }

  public async verify(spec: FedifySpec, request: WireRequest, documents: Record<string, unknown>): Promise<{ id: string; owner: string } | null> {
    const answer = await this.call({ op: 'verify', spec, ...request, documents });
    return answer.key as { id: string; owner: string } | null;
  }

  public stop(): void {
    this.child.kill();
  }

  private async call(message: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const answer = await new Promise<Record<string, unknown>>((resolve) => {
      this.pending.set(id, resolve);
      this.child.stdin.write(`${JSON.stringify({ id, ...message })}\n`);
    });
    if (typeof answer.error === 'string') {
      throw new Error(answer.error);
    }
    return answer;
  }
}

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

const DOCUMENTS = {
  [ACTOR]: {
    '@context': [ 'https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1' ],
    id: ACTOR,
    type: 'Person',
    inbox: `${ACTOR}/inbox`,
    publicKey: { id: KEY_ID, type: 'Key', owner: ACTOR, publicKeyPem },
  },
};
const privateKeyPem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

function asReceived(request: WireRequest, signed: Record<string, string>): VerifiableRequest {
  const headers: Record<string, string> = {};
  for (const [ name, value ] of Object.entries({ ...request.headers, ...signed })) {
    headers[name.toLowerCase()] = value;
  }
  headers.host ??= new URL(request.url).host;
  return { method: request.method, url: request.url, headers, ...request.body === undefined ? {} : { body: Buffer.from(request.body) } };
}

const resolveKey = jest.fn(async (keyId: string) => (keyId === KEY_ID ? { publicKey: keys.publicKey, owner: ACTOR } : undefined));
let worker: FedifyWorker;

beforeAll(() => {
  worker = new FedifyWorker();
});

afterAll(() => {
  worker.stop();
});

describe.each([ 'cavage', 'rfc9421' ] as const)('interop with Fedify (%s)', (scheme) => {
  const verifier = new HttpSignatureVerifier();
  const signer = new HttpSigner();
  const post: WireRequest = { method: 'POST', url: INBOX, headers: { 'content-type': 'application/activity+json' }, body: BODY };
  const get: WireRequest = { method: 'GET', url: `${ACTOR}/outbox`, headers: { accept: 'application/activity+json' } };

  it('verifies a POST signed by Fedify', async () => {
    const signed = await worker.sign(SPECS[scheme], post, KEY_ID, privateKeyPem);
    expect(signed[scheme === 'cavage' ? 'digest' : 'content-digest']).toBeDefined();
    const result = await verifier.verify(asReceived(post, signed), resolveKey);
    expect(result).toEqual({ ok: true, keyId: KEY_ID, owner: ACTOR, scheme });
  });

  it('refuses a Fedify-signed POST whose body was changed', async () => {
    const signed = await worker.sign(SPECS[scheme], post, KEY_ID, privateKeyPem);
    const result = await verifier.verify({ ...asReceived(post, signed), body: Buffer.from(BODY.replace('Follow', 'Block')) }, resolveKey);
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/Digest does not match/u) });
  });

  it('verifies a GET signed by Fedify', async () => {
    const signed = await worker.sign(SPECS[scheme], get, KEY_ID, privateKeyPem);
    await expect(verifier.verify(asReceived(get, signed), resolveKey)).resolves.toMatchObject({ ok: true, scheme });
  });

  it('verifies a GET with a query string signed by Fedify', async () => {
    // Fedify's cavage signatures leave the query out of (request-target), as old Mastodon did.
    const paged = { ...get, url: `${ACTOR}/outbox?page=2` };
    const signed = await worker.sign(SPECS[scheme], paged, KEY_ID, privateKeyPem);
    await expect(verifier.verify(asReceived(paged, signed), resolveKey)).resolves.toMatchObject({ ok: true, scheme });
  });

  it('signs a POST that Fedify verifies', async () => {
    const added = signer.sign(post, { keyId: KEY_ID, privateKey: keys.privateKey }, scheme);
    const key = await worker.verify(SPECS[scheme], { ...post, headers: { ...post.headers, ...added } }, DOCUMENTS);
    expect(key).toEqual({ id: KEY_ID, owner: ACTOR });
  });

  it('signs a GET that Fedify verifies', async () => {
    const added = signer.sign(get, { keyId: KEY_ID, privateKey: keys.privateKey }, scheme);
    const key = await worker.verify(SPECS[scheme], { ...get, headers: { ...get.headers, ...added } }, DOCUMENTS);
    expect(key).toEqual({ id: KEY_ID, owner: ACTOR });
  });

  it('signs nothing Fedify accepts once the body is changed', async () => {
    const added = signer.sign(post, { keyId: KEY_ID, privateKey: keys.privateKey }, scheme);
    const tampered = { ...post, headers: { ...post.headers, ...added }, body: BODY.replace('Follow', 'Block') };
    await expect(worker.verify(SPECS[scheme], tampered, DOCUMENTS)).resolves.toBeNull();
  });
});
