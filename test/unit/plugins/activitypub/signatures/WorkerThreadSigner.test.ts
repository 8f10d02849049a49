import { generateKeyPairSync } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import type { Rfc9421Algorithm } from '../../../../../src/plugins/activitypub/signatures/SignatureCommon';
import { signBytes, verifyBytes } from '../../../../../src/plugins/activitypub/signatures/SignatureCommon';
import { WorkerThreadSigner } from '../../../../../src/plugins/activitypub/signatures/WorkerThreadSigner';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherRsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const keys: Record<Rfc9421Algorithm, ReturnType<typeof generateKeyPairSync>> = {
  'rsa-v1_5-sha256': rsa,
  'rsa-pss-sha512': rsa,
  'ecdsa-p256-sha256': generateKeyPairSync('ec', { namedCurve: 'prime256v1' }),
  'ecdsa-p384-sha384': generateKeyPairSync('ec', { namedCurve: 'secp384r1' }),
  ed25519: generateKeyPairSync('ed25519'),
};

describe('WorkerThreadSigner', () => {
  let signer: WorkerThreadSigner;

  beforeEach(() => {
    signer = new WorkerThreadSigner(2);
  });

  afterEach(async () => {
    await signer.finalize();
  });

  it.each(Object.keys(keys) as Rfc9421Algorithm[])('makes %s signatures that verify', async (alg) => {
    const data = Buffer.from(`signature base for ${alg}`);
    const signature = await signer.sign(alg, data, keys[alg].privateKey);
    expect(verifyBytes(alg, data, keys[alg].publicKey, signature)).toBe(true);
    expect(verifyBytes(alg, Buffer.from('something else'), keys[alg].publicKey, signature)).toBe(false);
  });

  it('gives each of a turn\'s signatures to its own caller, whatever the key', async () => {
    const asked = Array.from({ length: 41 }, (_, index) => ({
      data: Buffer.from(`(request-target): post /inbox/${index}`),
      pair: index % 3 === 0 ? otherRsa : rsa,
    }));
    // Asked in one turn: one batch per thread.
    const signatures = await Promise.all(asked.map(async ({ data, pair }) => signer.sign('rsa-v1_5-sha256', data, pair.privateKey)));
    signatures.forEach((signature, index) => {
      const { data, pair } = asked[index];
      // PKCS#1 v1.5 is deterministic: the same bytes as signing here.
      expect(signature).toEqual(signBytes('rsa-v1_5-sha256', data, pair.privateKey));
    });
  });

  it('sends the one signature of a turn to a thread with nothing to do', async () => {
    const first = signer.sign('rsa-v1_5-sha256', Buffer.from('first turn'), rsa.privateKey);
    await new Promise((resolve) => setImmediate(resolve));
    const second = signer.sign('rsa-v1_5-sha256', Buffer.from('second turn'), rsa.privateKey);
    await new Promise((resolve) => setImmediate(resolve));
    // Reached through the private field: which thread signs is not visible otherwise.
    const { threads } = signer as unknown as { threads: ({ batches: Map<number, unknown[]> } | undefined)[] };
    expect(threads.map((thread) => [ ...thread?.batches.values() ?? [] ].flat().length)).toEqual([ 1, 1 ]);
    await Promise.all([ first, second ]);
  });

  it('fails only the signature whose key does not fit its algorithm', async () => {
    const results = await Promise.allSettled([
      signer.sign('rsa-v1_5-sha256', Buffer.from('a'), rsa.privateKey),
      signer.sign('rsa-v1_5-sha256', Buffer.from('b'), rsa.publicKey),
      signer.sign('rsa-v1_5-sha256', Buffer.from('c'), rsa.privateKey),
    ]);
    expect(results.map((result) => result.status)).toEqual([ 'fulfilled', 'rejected', 'fulfilled' ]);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(expect.objectContaining({ message: expect.stringMatching(/^Signing failed: /u) }));
  });

  it('fails the batches of a thread that stops, and starts a new thread for the next ones', async () => {
    const data = Buffer.from('lost');
    const underWay = Promise.allSettled(Array.from({ length: 10 }, async () => signer.sign('rsa-v1_5-sha256', data, rsa.privateKey)));
    await new Promise((resolve) => setImmediate(resolve));
    // Reached through the private field: nothing else can make a signing thread stop.
    const { threads } = signer as unknown as { threads: ({ worker: Worker } | undefined)[] };
    await Promise.all(threads.map(async (thread) => thread?.worker.terminate()));
    const results = await underWay;
    expect(results).toHaveLength(10);
    expect(results.every((result) => result.status === 'rejected' &&
      /^The signing thread exited/u.test((result.reason as Error).message))).toBe(true);
    await expect(signer.sign('rsa-v1_5-sha256', data, rsa.privateKey)).resolves.toEqual(signBytes('rsa-v1_5-sha256', data, rsa.privateKey));
  });

  it('starts its threads as an initializer, and none after finalize()', async () => {
    // Reached through the private field: a thread started ahead is not visible otherwise.
    const threadsOf = (of: WorkerThreadSigner): ({ worker: Worker } | undefined)[] =>
      (of as unknown as { threads: ({ worker: Worker } | undefined)[] }).threads;
    await signer.handle();
    const started = threadsOf(signer).map((thread) => thread?.worker);
    expect(started.every((worker) => worker !== undefined)).toBe(true);
    const data = Buffer.from('after start');
    await expect(signer.sign('rsa-v1_5-sha256', data, rsa.privateKey)).resolves.toEqual(signBytes('rsa-v1_5-sha256', data, rsa.privateKey));
    expect(threadsOf(signer).map((thread) => thread?.worker)).toEqual(started);

    const closed = new WorkerThreadSigner(2);
    await closed.finalize();
    await closed.handle();
    expect(threadsOf(closed)).toEqual([]);
  });

  it('answers the signatures under way when finalized, and signs on libuv\'s pool afterwards', async () => {
    const data = Buffer.from('under way');
    const underWay = Array.from({ length: 20 }, async () => signer.sign('rsa-v1_5-sha256', data, rsa.privateKey));
    // The batch leaves in the next turn: then it is on the threads when finalize() comes.
    await new Promise((resolve) => setImmediate(resolve));
    await signer.finalize();
    const expected = signBytes('rsa-v1_5-sha256', data, rsa.privateKey);
    await expect(Promise.all(underWay)).resolves.toEqual(Array.from({ length: 20 }, () => expected));
    await expect(signer.sign('rsa-v1_5-sha256', data, rsa.privateKey)).resolves.toEqual(expected);
  });
});
