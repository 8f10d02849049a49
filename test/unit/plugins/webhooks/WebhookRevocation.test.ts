import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccountStore } from '../../../../src/plugins/accounts/AccountStore';
import type { ChangeCounter } from '../../../../src/plugins/cluster/ChangeCounter';
import { FileChangeCounter } from '../../../../src/plugins/cluster/FileChangeCounter';
import type { JobQueue } from '../../../../src/plugins/queue/JobQueue';
import type { JobQueueFactory } from '../../../../src/plugins/queue/JobQueueFactory';
import { WebhookActionRegistry } from '../../../../src/plugins/webhooks/WebhookActionRegistry';
import type { WebhookJob } from '../../../../src/plugins/webhooks/WebhookService';
import { WebhookService } from '../../../../src/plugins/webhooks/WebhookService';
import { DEFAULT_WEBHOOK_CONTEXT, webhookKeyOf } from '../../../../src/plugins/webhooks/WebhookVocabulary';
import type { ResourceGraphStore } from '../../../../src/storage/ResourceGraphStore';

const BASE = 'https://pod.example/';

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
  return new WebhookService(BASE, graphs.view(gated), accounts, queues, registry, [ 'store-in-container' ],
    DEFAULT_WEBHOOK_CONTEXT, 'webhooks/', 3_600_000, 10_000, revocations);
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
