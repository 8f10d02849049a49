import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccountStore } from '../../../../src/plugins/accounts/AccountStore';
import type { ChangeCounter } from '../../../../src/plugins/cluster/ChangeCounter';
import { FileChangeCounter } from '../../../../src/plugins/cluster/FileChangeCounter';
import type { Batch } from '../../../../src/plugins/queue/BatchingJobQueue';
import type { JobQueue } from '../../../../src/plugins/queue/JobQueue';
import type { JobQueueFactory } from '../../../../src/plugins/queue/JobQueueFactory';
import type { WebhookAction } from '../../../../src/plugins/webhooks/WebhookAction';
import { WebhookActionRegistry } from '../../../../src/plugins/webhooks/WebhookActionRegistry';
import { UnknownActionError } from '../../../../src/plugins/webhooks/WebhookErrors';
import type { WebhookJob } from '../../../../src/plugins/webhooks/WebhookService';
import { WebhookService } from '../../../../src/plugins/webhooks/WebhookService';
import { DEFAULT_WEBHOOK_CONTEXT, webhookKeyOf } from '../../../../src/plugins/webhooks/WebhookVocabulary';
import type { ResourceGraphStore } from '../../../../src/storage/ResourceGraphStore';

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
  const service = new WebhookService({ baseUrl: BASE, resources: store as unknown as ResourceGraphStore, accounts, queues,
    registry, allowedActions: [ 'store-in-container' ], containerUri: 'webhooks/', cacheTtlMs: ttl }, DEFAULT_WEBHOOK_CONTEXT);
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
    expect(() => new WebhookService({ baseUrl: BASE, resources: {} as ResourceGraphStore, accounts: {} as AccountStore,
      queues: {} as JobQueueFactory, registry: new WebhookActionRegistry([]), allowedActions: [ 'nope' ]}, {})).toThrow('nope');
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

  it('generates no webhook for a token whose account does not exist, storing nothing', async() => {
    const store = { createInContainer: jest.fn(), readData: jest.fn(async(): Promise<unknown[]> => []), delete: jest.fn() };
    const accounts = { findByUsername: jest.fn(async(): Promise<undefined> => undefined) } as unknown as AccountStore;
    const registry = new WebhookActionRegistry([ { name: 'store-in-container', run: jest.fn() } ]);
    const service = new WebhookService({ baseUrl: BASE, resources: store as unknown as ResourceGraphStore, accounts,
      queues: { create: jest.fn() } as unknown as JobQueueFactory, registry, allowedActions: [ 'store-in-container' ], containerUri: 'webhooks/', cacheTtlMs: 2000 }, DEFAULT_WEBHOOK_CONTEXT);
    await expect(service.generate({ webId: `${BASE}actors/ghost`, username: 'ghost' }, 'store-in-container'))
      .rejects.toMatchObject({ statusCode: 403, errorCode: 'unknown_account' });
    expect(store.createInContainer).not.toHaveBeenCalled();
  });
});

/** The triple store both nodes share, reduced to what WebhookStore uses (a stand-in: no store runs in unit tests). */
class SharedGraphs {
  public readonly graphs = new Map<string, unknown[]>();
  public reads = 0;
  /** When set, reads through a gated view wait for it: a read under way while something else happens. */
  public gate: Promise<void> | undefined;
  /** Called when a gated read has begun. */
  public onGatedRead: (() => void) | undefined;

  public view(gated = false): ResourceGraphStore {
    return {
      createInContainer: async(_container: string, iri: string, data: unknown[]): Promise<void> => {
        this.graphs.set(iri, data);
      },
      readData: async(iri: string): Promise<unknown[]> => {
        this.reads += 1;
        const data = this.graphs.get(iri) ?? [];
        if (gated && this.gate) {
          this.onGatedRead?.();
          await this.gate;
        }
        return data;
      },
      delete: async(iri: string): Promise<void> => {
        this.graphs.delete(iri);
      },
    } as unknown as ResourceGraphStore;
  }
}

function node(graphs: SharedGraphs, revocations?: ChangeCounter, gated = false): WebhookService {
  const accounts = { findByUsername: async(username: string): Promise<unknown> => ({ username, webId: `${BASE}actors/${username}` }) } as
    unknown as AccountStore;
  const queue = { add: async(): Promise<string> => 'id' } as unknown as JobQueue<WebhookJob>;
  const queues = { create: (): JobQueue<WebhookJob> => queue } as unknown as JobQueueFactory;
  const registry = new WebhookActionRegistry([ { name: 'store-in-container', run: async(): Promise<void> => undefined } ]);
  // A cache time of an hour: only the shared counter can make a revocation visible within the test.
  return new WebhookService({ baseUrl: BASE, resources: graphs.view(gated), accounts, queues, registry,
    allowedActions: [ 'store-in-container' ], containerUri: 'webhooks/',
    cacheTtlMs: 3_600_000, cacheSize: 10_000, revocations }, DEFAULT_WEBHOOK_CONTEXT);
}

describe('WebhookService with a revocation counter shared by several nodes', (): void => {
  let dataDir: string;

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-revocations-'));
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses on node B at once a webhook revoked on node A, while B still serves its other webhooks from memory', async(): Promise<void> => {
    const graphs = new SharedGraphs();
    const nodeA = node(graphs, new FileChangeCounter(dataDir, 'webhook-revocations'));
    const nodeB = node(graphs, new FileChangeCounter(dataDir, 'webhook-revocations'));
    const user = await nodeA.resolveUser('alice');
    const revoked = (await nodeA.generate(user, 'store-in-container')).id;
    const kept = (await nodeA.generate(user, 'store-in-container')).id;
    const secretOf = (uri: string): string => uri.slice(`${BASE}webhooks/`.length);
    expect(await nodeB.accept(secretOf(revoked), {})).toMatch(/^wh-/u);
    expect(await nodeB.accept(secretOf(kept), {})).toMatch(/^wh-/u);
    const reads = graphs.reads;
    await nodeB.accept(secretOf(kept), {});
    expect(graphs.reads).toBe(reads);
    await nodeA.revoke(revoked);
    await expect(nodeB.accept(secretOf(revoked), {})).rejects.toMatchObject({ statusCode: 404 });
    expect(await nodeB.accept(secretOf(kept), {})).toMatch(/^wh-/u);
  });

  it('does not let a read that began before a revocation answer a lookup made after it', async(): Promise<void> => {
    const graphs = new SharedGraphs();
    const counter = new FileChangeCounter(dataDir, 'webhook-revocations');
    const nodeA = node(graphs, counter);
    const nodeB = node(graphs, counter, true);
    const { id } = await nodeA.generate(await nodeA.resolveUser('alice'), 'store-in-container');
    const secret = id.slice(`${BASE}webhooks/`.length);
    let open!: () => void;
    graphs.gate = new Promise((resolve): void => {
      open = resolve;
    });
    const begun = new Promise<void>((resolve): void => {
      graphs.onGatedRead = resolve;
    });
    // B starts reading the record (and sees it), then A revokes before that read is done.
    const early = nodeB.lookup(secret);
    await begun;
    await nodeA.revoke(`${BASE}webhooks/${webhookKeyOf(secret)}`);
    const late = nodeB.lookup(secret);
    open();
    graphs.gate = undefined;
    expect(await early).toBeDefined();
    expect(await late).toBeUndefined();
    expect(await nodeB.lookup(secret)).toBeUndefined();
  });

  it('without a counter, keeps serving a record revoked elsewhere until its cache time is over (the documented fallback)', async(): Promise<void> => {
    const graphs = new SharedGraphs();
    const nodeA = node(graphs);
    const nodeB = node(graphs);
    const { id } = await nodeA.generate(await nodeA.resolveUser('alice'), 'store-in-container');
    const secret = id.slice(`${BASE}webhooks/`.length);
    expect(await nodeB.lookup(secret)).toBeDefined();
    await nodeA.revoke(id);
    expect(await nodeB.lookup(secret)).toBeDefined();
    expect(await nodeA.lookup(secret)).toBeUndefined();
  });
});
