import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TokenService } from '../../../../src/plugins/accounts/TokenService';
import type { Batch } from '../../../../src/plugins/queue/BatchingJobQueue';
import type { JobQueue } from '../../../../src/plugins/queue/JobQueue';
import type { JobQueueFactory } from '../../../../src/plugins/queue/JobQueueFactory';
import { WebhookActionRegistry } from '../../../../src/plugins/webhooks/WebhookActionRegistry';
import type { WebhookJob } from '../../../../src/plugins/webhooks/WebhookService';
import { WebhookService } from '../../../../src/plugins/webhooks/WebhookService';
import { DEFAULT_WEBHOOK_CONTEXT } from '../../../../src/plugins/webhooks/WebhookVocabulary';
import type { EmbeddedGraphs } from '../../support/embeddedGraphs';
import { startEmbeddedGraphs } from '../../support/embeddedGraphs';
import { InMemoryAccountStoreFake } from '../support/InMemoryAccountStore';

export const BASE = 'https://pod.example/';
export const ALICE = `${BASE}actors/alice`;
export const BOB = `${BASE}actors/bob`;

/** A real WebhookService on the embedded store (alice and bob have accounts), its jobs recorded instead of queued. */
export interface WebhookWorld {
  service: WebhookService;
  tokens: TokenService;
  /** The jobs accepted so far, in order. */
  accepted: WebhookJob[];
  stop: () => Promise<void>;
}

export async function startWebhookWorld(): Promise<WebhookWorld> {
  const graphs: EmbeddedGraphs = await startEmbeddedGraphs(BASE);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fedpod-webhook-handler-'));
  const accepted: WebhookJob[] = [];
  const queue = {
    add: async(data: Batch<WebhookJob>): Promise<string> => {
      accepted.push(...data.batch.map((entry): WebhookJob => entry.d));
      return 'queued';
    },
  } as unknown as JobQueue<Batch<WebhookJob>>;
  const queues = { create: (): JobQueue<Batch<WebhookJob>> => queue } as unknown as JobQueueFactory;
  const registry = new WebhookActionRegistry([ 'store-in-container', 'post-to-outbox' ]
    .map((name): { name: string; run: () => Promise<void> } => ({ name, run: async(): Promise<void> => undefined })));
  const service = new WebhookService({ baseUrl: BASE, resources: graphs.resources,
    accounts: new InMemoryAccountStoreFake(BASE, [ 'alice', 'bob' ]), queues, registry,
    allowedActions: [ 'store-in-container' ] }, DEFAULT_WEBHOOK_CONTEXT);
  return {
    service,
    tokens: new TokenService(BASE, dataDir),
    accepted,
    stop: async(): Promise<void> => {
      await graphs.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
