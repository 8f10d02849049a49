import type { AccountStore } from '../../../../src/plugins/accounts/AccountStore';
import type { Batch } from '../../../../src/plugins/queue/BatchingJobQueue';
import type { JobQueue } from '../../../../src/plugins/queue/JobQueue';
import type { JobQueueFactory } from '../../../../src/plugins/queue/JobQueueFactory';
import { PermanentJobError } from '../../../../src/plugins/queue/PermanentJobError';
import { PostToOutboxAction } from '../../../../src/plugins/webhooks/actions/PostToOutboxAction';
import type { WebhookAction } from '../../../../src/plugins/webhooks/WebhookAction';
import { WebhookActionRegistry } from '../../../../src/plugins/webhooks/WebhookActionRegistry';
import { UnknownActionError } from '../../../../src/plugins/webhooks/WebhookErrors';
import type { WebhookJob } from '../../../../src/plugins/webhooks/WebhookService';
import { WebhookService } from '../../../../src/plugins/webhooks/WebhookService';
import { DEFAULT_WEBHOOK_CONTEXT, webhookKeyOf } from '../../../../src/plugins/webhooks/WebhookVocabulary';
import type { ResourceGraphStore } from '../../../../src/storage/ResourceGraphStore';
import { badRequest } from '../../../../src/util/HttpErrors';

const BASE = 'https://pod.example/';

function action(name: string): WebhookAction {
  return { name, run: jest.fn(async(): Promise<void> => undefined) };
}

function setup(ttl = 2000): { service: WebhookService; store: { readData: jest.Mock; createInContainer: jest.Mock; delete: jest.Mock }; added: WebhookJob[] } {
  const graphs = new Map<string, unknown[]>();
  const store = {
    createInContainer: jest.fn(async(_container: string, iri: string, data: unknown[]): Promise<void> => {
      graphs.set(iri, data);
    }),
    readData: jest.fn(async(iri: string): Promise<unknown[]> => graphs.get(iri) ?? []),
    delete: jest.fn(async(iri: string): Promise<void> => {
      graphs.delete(iri);
    }),
  };
  const accounts = { findByUsername: jest.fn(async(username: string) => username === 'alice' ?
    { username, webId: `${BASE}actors/alice` } :
    undefined) } as unknown as AccountStore;
  const added: WebhookJob[] = [];
  // A stand-in for the durable queue (the real ones are tested in test/unit/plugins/queue): it records
  // the jobs of every batch the service adds.
  const queue = { add: jest.fn(async(data: Batch<WebhookJob>): Promise<string> => {
    added.push(...data.batch.map((entry): WebhookJob => entry.d));
    return 'queue-id';
  }) } as unknown as JobQueue<Batch<WebhookJob>>;
  const queues = { create: (): JobQueue<Batch<WebhookJob>> => queue } as unknown as JobQueueFactory;
  const registry = new WebhookActionRegistry([ action('store-in-container'), action('post-to-outbox') ]);
  const service = new WebhookService(BASE, store as unknown as ResourceGraphStore, accounts, queues,
    registry, [ 'store-in-container' ], DEFAULT_WEBHOOK_CONTEXT, 'webhooks/', ttl);
  return { service, store, added };
}

describe('WebhookService', () => {
  it('generates URIs under the container with 256 random bits, storing only their hash', async() => {
    const { service, store } = setup();
    const user = await service.resolveUser('alice');
    const first = await service.generate(user, 'store-in-container');
    const second = await service.generate(user, 'store-in-container');
    expect(first.id).toMatch(/^https:\/\/pod\.example\/webhooks\/[A-Za-z0-9_-]{43}$/u);
    expect(first.id).not.toBe(second.id);
    const secret = first.id.slice(`${BASE}webhooks/`.length);
    const storedIri = store.createInContainer.mock.calls[0][1] as string;
    expect(storedIri).toBe(`${BASE}webhooks/${webhookKeyOf(secret)}`);
    expect(JSON.stringify(store.createInContainer.mock.calls)).not.toContain(secret);
  });

  it('refuses actions that are not allowed, listing the allowed ones, and unknown users', async() => {
    const { service } = setup();
    const user = await service.resolveUser(`${BASE}actors/alice`);
    await expect(service.generate(user, 'post-to-outbox')).rejects.toThrow(UnknownActionError);
    await expect(service.generate(user, undefined)).rejects.toMatchObject({ statusCode: 400, allowedActions: [ 'store-in-container' ]});
    await expect(service.resolveUser('mallory')).rejects.toMatchObject({ statusCode: 404 });
  });

  it('refuses a configuration allowing an action that is not registered', () => {
    expect(() => new WebhookService(BASE, {} as ResourceGraphStore, {} as AccountStore,
      {} as JobQueueFactory, new WebhookActionRegistry([]), [ 'nope' ], {})).toThrow('nope');
  });

  it('serves lookups from memory, and a revoked webhook stops at once', async() => {
    const { service, store, added } = setup(60_000);
    const user = await service.resolveUser('alice');
    const { id } = await service.generate(user, 'store-in-container');
    const secret = id.slice(`${BASE}webhooks/`.length);
    const reads = store.readData.mock.calls.length;
    for (let index = 0; index < 20; index += 1) {
      await service.accept(secret, { index });
    }
    expect(store.readData.mock.calls.length).toBe(reads);
    expect(added).toHaveLength(20);
    expect(added[0]).toMatchObject({ user: user.webId, username: 'alice', action: 'store-in-container', data: { index: 0 }});
    await expect(service.revoke(id, `${BASE}actors/bob`)).rejects.toMatchObject({ statusCode: 403 });
    await service.revoke(id, user.webId);
    await expect(service.accept(secret, {})).rejects.toMatchObject({ statusCode: 404 });
    await expect(service.revoke(id)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('sees a revocation made elsewhere once the cache time is over', async() => {
    const { service, store } = setup(50);
    const { id } = await service.generate(await service.resolveUser('alice'), 'store-in-container');
    const secret = id.slice(`${BASE}webhooks/`.length);
    expect(await service.lookup(secret)).toBeDefined();
    await store.delete(`${BASE}webhooks/${webhookKeyOf(secret)}`);
    expect(await service.lookup(secret)).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await service.lookup(secret)).toBeUndefined();
  });

  it('revokes by record IRI too', async() => {
    const { service } = setup();
    const { id } = await service.generate(await service.resolveUser('alice'), 'store-in-container');
    const secret = id.slice(`${BASE}webhooks/`.length);
    await service.revoke(`${BASE}webhooks/${webhookKeyOf(secret)}`);
    expect(await service.lookup(secret)).toBeUndefined();
  });
});

describe('WebhookActionRegistry', () => {
  it('refuses two actions with one name', () => {
    expect(() => new WebhookActionRegistry([ action('a'), action('a') ])).toThrow('a');
    expect(new WebhookActionRegistry([ action('b'), action('a') ]).names).toEqual([ 'a', 'b' ]);
  });
});

describe('PostToOutboxAction', () => {
  it('turns a 4xx from the outbox into a PermanentJobError, and retries others', async() => {
    const outbox = { post: jest.fn() };
    const posted = new PostToOutboxAction(outbox as never);
    const input = { user: `${BASE}actors/alice`, username: 'alice', data: 'x', jobId: 'j', receivedAt: '' };
    outbox.post.mockRejectedValueOnce(badRequest('no'));
    await expect(posted.run(input)).rejects.toBeInstanceOf(PermanentJobError);
    outbox.post.mockRejectedValueOnce(new Error('store down'));
    await expect(posted.run(input)).rejects.not.toBeInstanceOf(PermanentJobError);
    outbox.post.mockResolvedValueOnce({ id: 'x', activity: {}});
    await expect(posted.run(input)).resolves.toBeUndefined();
    expect(outbox.post).toHaveBeenLastCalledWith('alice', 'x');
  });
});
