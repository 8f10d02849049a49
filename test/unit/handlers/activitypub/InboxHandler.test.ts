import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InboxHandler } from '../../../../src/handlers/activitypub/InboxHandler';
import type { InboxJob } from '../../../../src/plugins/activitypub/delivery/DeliveryJobs';
import type { RemoteActorCache, RemoteKey } from '../../../../src/plugins/activitypub/fetch/RemoteActorCache';
import { HttpSignatureVerifier } from '../../../../src/plugins/activitypub/signatures/HttpSignatureVerifier';
import { HttpSigner } from '../../../../src/plugins/activitypub/signatures/HttpSigner';
import { UserDomainBlocks } from '../../../../src/plugins/moderation/UserDomainBlocks';
import type { JobOptions, JobQueue } from '../../../../src/plugins/queue/JobQueue';
import type { JobQueueFactory } from '../../../../src/plugins/queue/JobQueueFactory';
import { InMemoryAccountStoreFake } from '../support/InMemoryAccountStore';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';

const BASE = 'https://pod.example/';
const BOB = 'https://remote.example/users/bob';
const CAROL = 'https://remote.example/users/carol';
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const KEYS = new Map<string, RemoteKey>([ BOB, CAROL ].map((owner): [string, RemoteKey] =>
  [ `${owner}#main-key`, { keyId: `${owner}#main-key`, publicKey, owner } ]));

interface Queued {
  queue: string;
  job: InboxJob;
  options?: JobOptions;
}

describe('InboxHandler', (): void => {
  const signer = new HttpSigner();
  const queued: Queued[] = [];
  let server: HandlerServer;
  const dataDir = mkdtempSync(join(tmpdir(), 'fedpod-inbox-handler-'));

  beforeAll(async(): Promise<void> => {
    const userDomainBlocks = new UserDomainBlocks(dataDir);
    await userDomainBlocks.add('dave', 'remote.example');
    const actors = {
      getKey: async(keyId: string): Promise<RemoteKey> => {
        const key = KEYS.get(keyId);
        if (!key) {
          throw new Error(`no key ${keyId}`);
        }
        return key;
      },
    } as unknown as RemoteActorCache;
    const queues = {
      create: <T>(queue: string): JobQueue<T> => ({
        add: async(job: T, options?: JobOptions): Promise<void> => {
          queued.push({ queue, job: job as InboxJob, options });
        },
      }) as unknown as JobQueue<T>,
    } as unknown as JobQueueFactory;
    const handler = new InboxHandler(BASE, new HttpSignatureVerifier(), actors, queues,
      new InMemoryAccountStoreFake(BASE, [ 'alice', 'dave' ]), 2000, userDomainBlocks);
    server = await serveHandler(handler);
  });

  afterAll(async(): Promise<void> => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  beforeEach((): void => {
    queued.length = 0;
  });

  /** POSTs `body` to `path`, signed (RFC 9421) by `signedBy`'s key for `signedPath` (the same path unless given). */
  async function deliver(path: string, body: unknown, signedBy?: string, signedPath = path):
  Promise<{ status: number; body: Record<string, unknown> }> {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    const headers: Record<string, string> = { 'content-type': 'application/activity+json' };
    if (signedBy !== undefined) {
      Object.assign(headers, signer.sign({ method: 'POST', url: `https://pod.example${signedPath}`, headers, body: text },
        { keyId: `${signedBy}#main-key`, privateKey }, 'rfc9421'));
    }
    const response = await fetch(`${server.base}${path}`, { method: 'POST', headers, body: text });
    return { status: response.status, body: await response.json() as Record<string, unknown> };
  }

  const follow = { id: 'https://remote.example/activities/1', type: 'Follow', actor: BOB, object: `${BASE}actors/alice` };

  it('queues a signed delivery to a personal inbox for its owner and answers 202', async(): Promise<void> => {
    const answer = await deliver('/actors/alice/inbox', follow, BOB);
    expect(answer).toEqual({ status: 202, body: { status: 'accepted', id: follow.id }});
    expect(queued).toEqual([{ queue: 'ap-inbox', job: { activity: follow, inboxOwner: 'alice' },
      options: { jobId: `inbox:${follow.id}:alice` }}]);
  });

  it('answers 403 domain_blocked to a delivery from a domain the inbox\'s owner blocked', async(): Promise<void> => {
    const answer = await deliver('/actors/dave/inbox', { ...follow, object: `${BASE}actors/dave` }, BOB);
    expect(answer).toMatchObject({ status: 403, body: { error: 'domain_blocked' }});
    expect(queued).toEqual([]);
  });

  it('queues a delivery to the shared inbox without an owner', async(): Promise<void> => {
    expect((await deliver('/inbox', follow, BOB)).status).toBe(202);
    expect(queued).toEqual([{ queue: 'ap-inbox', job: { activity: follow }, options: { jobId: `inbox:${follow.id}:shared` }}]);
  });

  it('takes the signer as the actor when the activity names several', async(): Promise<void> => {
    expect((await deliver('/inbox', { ...follow, actor: [ CAROL, BOB ] }, BOB)).status).toBe(202);
    expect(queued[0].job.activity).toEqual({ ...follow, actor: BOB });
  });

  it('answers 401 invalid_signature to an unsigned delivery or one signed for another path', async(): Promise<void> => {
    for (const answer of [ await deliver('/inbox', follow), await deliver('/inbox', follow, BOB, '/actors/alice/inbox') ]) {
      expect(answer.status).toBe(401);
      expect(answer.body.error).toBe('invalid_signature');
      expect(answer.body.message).toMatch(/^The HTTP signature is not valid: .+\.$/u);
    }
    expect(queued).toEqual([]);
  });

  it('answers 401 signer_mismatch when the key is another actor\'s than the activity\'s', async(): Promise<void> => {
    const answer = await deliver('/inbox', follow, CAROL);
    expect(answer).toEqual({ status: 401, body: { error: 'signer_mismatch',
      message: 'The request is signed with a key of another actor than the activity\'s.' }});
    expect(queued).toEqual([]);
  });

  it('answers 400 to a signed body that is not JSON or not an activity', async(): Promise<void> => {
    expect((await deliver('/inbox', '{"id":', BOB)).body.error).toBe('invalid_json');
    for (const body of [ { type: 'Follow', actor: BOB }, { id: 'https://remote.example/activities/2', actor: BOB }, [ follow ] ]) {
      const answer = await deliver('/inbox', body, BOB);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'invalid_activity', message: 'An activity needs an id and a type.' });
    }
    expect(queued).toEqual([]);
  });

  it('answers 404 for the inbox of an actor that does not exist, and 413 past the body limit', async(): Promise<void> => {
    const unknown = await deliver('/actors/zed/inbox', follow, BOB);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'not_found', message: 'No actor zed' });
    const large = await deliver('/inbox', { ...follow, summary: 'x'.repeat(3000) }, BOB);
    expect(large.status).toBe(413);
    expect(queued).toEqual([]);
  });

  it('takes only POSTs to an inbox', async(): Promise<void> => {
    expect(declined(await fetch(`${server.base}/inbox`))).toBe(true);
    for (const path of [ '/actors/alice/outbox', '/inbox/', '/actors/Alice!/inbox', '/x/inbox' ]) {
      const response = await fetch(`${server.base}${path}`, { method: 'POST', body: '{}' });
      expect({ path, declined: declined(response) }).toEqual({ path, declined: true });
    }
    expect(queued).toEqual([]);
  });
});
