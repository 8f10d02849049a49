import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { ComponentsManager } from 'componentsjs';
import type { StoreUrls } from '../../util/StoreUrls';
import { storeUrlsOf } from '../../util/StoreUrls';
import type { Batch } from '../queue/BatchingJobQueue';
import { BatchingJobQueue } from '../queue/BatchingJobQueue';
import { BullMqJobQueue } from '../queue/BullMqJobQueue';
import type { DeadLetter } from '../queue/JobQueue';
import { JournalCodec } from '../queue/JournalCodec';
import type { WebhookJob, WebhookService } from './WebhookService';
import { WEBHOOK_QUEUE } from './WebhookService';
import { errnoOf, messageOf } from '../../util/Errors';

export interface WebhookCliOptions {
  command: 'generate' | 'list' | 'revoke' | 'dead-letters';
  /** generate: a username or a WebID. list: only this user's webhooks. */
  user?: string;
  action?: string;
  /** revoke: the webhook URI or its record IRI. */
  uri?: string;
  /** The repository root (Components.js main module path). */
  root: string;
  /** Config files (the setup and its backend part), as `fedpod start` resolves them. */
  configFiles: string[];
  /** The backend of those (config/parts/backend/): where the webhook queue's dead letters are. */
  backend: 'local' | 'redis';
  baseUrl: string;
  dataDir: string;
  /** Store endpoints, as `fedpod start` resolves them ('' for the embedded store). */
  sparqlEndpoint: string;
  dataset: string;
  storePort: number;
  sparqlUser: string;
  sparqlPassword: string;
  redisUrl: string;
  tokenLifetime?: number;
  /** Wait in ms after a queued job's first failed run (--retry-base-delay). */
  retryBaseDelay?: number;
  /** Most dead letters listed. */
  limit?: number;
  stdout?: (line: string) => void;
  stderr?: (line: string) => void;
}

async function reachable(url: string): Promise<boolean> {
  try {
    await fetch(url, { method: 'GET', signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

/**
 * Dead letters of the local `webhooks` queue, read from its journal without opening the queue: a
 * running server holds the queue directory's lock, and reading needs none (records are appended
 * whole and checksummed; a half-written tail is ignored).
 */
export async function readLocalDeadLetters(directory: string, limit = 100): Promise<DeadLetter<WebhookJob>[]> {
  let names: string[];
  try {
    names = await fs.readdir(directory);
  } catch (error: unknown) {
    if (errnoOf(error) === 'ENOENT') {
      return [];
    }
    throw error;
  }
  const journals = names.filter((name): boolean => /^journal-\d{12}\.log$/u.test(name)).sort();
  if (journals.length === 0) {
    return [];
  }
  const { records } = JournalCodec.decode(await fs.readFile(join(directory, journals.at(-1)!)));
  const pending = new Map<string, unknown>();
  const dead: DeadLetter<WebhookJob>[] = [];
  for (const record of records) {
    switch (record.t) {
      case 'a':
        pending.set(record.id, record.d);
        break;
      case 'c':
        pending.delete(record.id);
        break;
      case 'x':
        if (pending.has(record.id)) {
          dead.push({ id: record.id, queue: WEBHOOK_QUEUE, data: pending.get(record.id) as WebhookJob, attempts: record.f,
            error: record.e, failedAt: new Date(record.at).toISOString() });
          pending.delete(record.id);
        }
        break;
      case 'D':
        dead.push({ id: record.id, queue: WEBHOOK_QUEUE, data: record.d as WebhookJob, attempts: record.f,
          error: record.e, failedAt: new Date(record.at).toISOString() });
        break;
      default:
        break;
    }
  }
  // Records hold batches of accepted POSTs (see WebhookService.queue).
  return BatchingJobQueue.expandDeadLetters<WebhookJob>(dead.reverse()).slice(0, limit);
}

/**
 * The service as the server's config makes it (same settings, actions and store), without starting
 * anything: Components.js instantiates `urn:fedpod:default:WebhookService` and what it needs.
 */
async function instantiateService(options: WebhookCliOptions, store: StoreUrls): Promise<WebhookService> {
  const manager = await ComponentsManager.build({ mainModulePath: options.root, typeChecking: false,
    dumpErrorState: false, logLevel: 'error' });
  for (const file of options.configFiles) {
    await manager.configRegistry.register(file);
  }
  const variables: Record<string, unknown> = {
    'urn:solid-server:default:variable:baseUrl': options.baseUrl,
    'urn:solid-server:default:variable:port': 0,
    'urn:solid-server:default:variable:loggingLevel': 'error',
    'urn:solid-server:default:variable:showStackTrace': false,
    'urn:solid-server:default:variable:socket': null,
    'urn:solid-server:default:variable:workers': 1,
    'urn:solid-server:default:variable:confirmMigration': true,
    'urn:solid-server:default:variable:seedConfig': null,
    'urn:solid-server:default:variable:rootFilePath': options.dataDir,
    'urn:solid-server:default:variable:sparqlEndpoint': store.queryUrl,
    'urn:solid-server:default:variable:podConfigJson': join(options.dataDir, 'pod-config.json'),
    'urn:fedpod:default:variable:sparqlQueryUrl': store.queryUrl,
    'urn:fedpod:default:variable:sparqlUpdateUrl': store.updateUrl,
    'urn:fedpod:default:variable:sparqlAdminUrl': store.adminUrl,
    'urn:fedpod:default:variable:sparqlDataset': options.dataset,
    'urn:fedpod:default:variable:sparqlUser': options.sparqlUser,
    'urn:fedpod:default:variable:sparqlPassword': options.sparqlPassword,
    'urn:fedpod:default:variable:maxBodyBytes': 1_048_576,
    'urn:fedpod:default:variable:containerPageSize': 500,
    'urn:fedpod:default:variable:dataDir': options.dataDir,
    'urn:fedpod:default:variable:tokenLifetime': options.tokenLifetime ?? 604_800,
    'urn:fedpod:default:variable:redisUrl': options.redisUrl,
    'urn:fedpod:default:variable:queueWorkers': true,
    'urn:fedpod:default:variable:allowPrivateNetwork': false,
    'urn:fedpod:default:variable:host': '',
    'urn:fedpod:default:variable:retryBaseDelay': options.retryBaseDelay ?? 30_000,
    'urn:fedpod:default:variable:jobLockDuration': 30_000,
  };
  return manager.instantiate<WebhookService>('urn:fedpod:default:WebhookService', { variables });
}

/**
 * `fedpod webhooks generate|list|revoke|dead-letters`: the operator's console, on the same data as a
 * running server (the store through its HTTP face: the embedded store of a running server, or one
 * started here for the duration when none runs). Resolves with the exit code.
 */
export async function runWebhookCommand(options: WebhookCliOptions): Promise<number> {
  const out = options.stdout ?? ((line: string): void => {
    process.stdout.write(`${line}\n`);
  });
  const err = options.stderr ?? ((line: string): void => {
    process.stderr.write(`${line}\n`);
  });
  if (options.command === 'dead-letters') {
    let letters: DeadLetter<WebhookJob>[];
    if (options.backend === 'redis') {
      const queue = new BatchingJobQueue<WebhookJob>(new BullMqJobQueue<Batch<WebhookJob>>(WEBHOOK_QUEUE,
        { redisUrl: options.redisUrl.trim() }));
      try {
        letters = await queue.deadLetters(options.limit ?? 100);
      } finally {
        await queue.close();
      }
    } else {
      letters = await readLocalDeadLetters(join(options.dataDir, 'queues', WEBHOOK_QUEUE), options.limit ?? 100);
    }
    for (const letter of letters) {
      out(JSON.stringify(letter));
    }
    if (letters.length === 0) {
      err('No dead letters.');
    }
    return 0;
  }

  let stopEmbedded: (() => Promise<void>) | undefined;
  let endpoint = options.sparqlEndpoint;
  if (!endpoint) {
    endpoint = `http://127.0.0.1:${options.storePort}`;
    if (!await reachable(endpoint)) {
      // No server runs on this data dir: open its embedded store for the duration of the command.
      const embedded = await import('../../storage/embedded');
      const started = await embedded.startEmbeddedStoreWorker({ host: '127.0.0.1', port: options.storePort,
        dataDir: join(options.dataDir, 'store'), user: options.sparqlUser, password: options.sparqlPassword });
      endpoint = started.url;
      stopEmbedded = async(): Promise<void> => started.stop();
    }
  }
  try {
    const service = await instantiateService(options, storeUrlsOf(endpoint, options.dataset));
    switch (options.command) {
      case 'generate': {
        const user = await service.resolveUser(options.user ?? '');
        const webhook = await service.generate(user, options.action);
        out(webhook.id);
        return 0;
      }
      case 'list': {
        const user = options.user ? (await service.resolveUser(options.user)).webId : undefined;
        for (const record of await service.list(user)) {
          out([ record.iri, record.user, record.action, record.created ].join('\t'));
        }
        return 0;
      }
      case 'revoke': {
        const record = await service.revoke(options.uri ?? '');
        out(`revoked ${record.iri} (${record.action} for ${record.user})`);
        return 0;
      }
      default:
        throw new Error(`Unknown command ${String(options.command)}`);
    }
  } catch (error: unknown) {
    err(`fedpod webhooks ${options.command}: ${messageOf(error)}`);
    return 1;
  } finally {
    await stopEmbedded?.();
  }
}
