/**
 * The test-side handle of the Fedify peer (test/support/fedify-peer/peer.js):
 * a real ActivityPub server in its own Node process, over HTTPS, that
 * verifies signatures for real, auto-accepts Follows and records everything
 * it receives. See peer.js for the control endpoints behind these methods.
 *
 *   const tls = testTls();
 *   const peer = await startFedifyPeer(tls);
 *   await peer.follow('acct:alice@localhost:1234');
 *   const accept = await peer.waitFor((a) => a.type === 'Accept');
 *   await peer.stop();
 */
import * as path from 'node:path';
import { ManagedProcess, type ManagedServer } from './managed-process';
import { freePort } from './ports';
import { spawnLogged, tailFile, type SpawnedProcess } from './processes';
import { httpsRequest, tlsEnv, type HttpsResult, type TlsFiles } from './tls';

const PEER_PROGRAM = path.join(__dirname, 'fedify-peer', 'peer.js');

export interface StartFedifyPeerOptions extends TlsFiles {
  /** Signature scheme tried first with servers not seen before; default draft-cavage (as Mastodon). */
  firstKnock?: 'draft-cavage-http-signatures-12' | 'rfc9421';
  /** LogTape level of Fedify's own logs in the peer's log file; default info. */
  logLevel?: 'debug' | 'info' | 'warning' | 'error';
  /** Default: a free port. */
  port?: number;
  /** Default 30 s. */
  startTimeoutMs?: number;
}

/** One activity that reached one of the peer's inboxes. */
export interface ReceivedActivity {
  seq: number;
  /** `type` of the JSON as received, e.g. 'Follow'. */
  type: string;
  id: string | null;
  actor: string | null;
  /** `object` of the JSON as received: an IRI or an embedded object. */
  object: unknown;
  /** The object's IRI (the string itself, or the embedded object's id). */
  objectId: string | null;
  /** 'peer' for the actor's inbox, null for the shared inbox. */
  recipient: string | null;
  /** True when Fedify verified the request's signature (listeners run only then); false: see `reason`. */
  verified: boolean;
  reason?: unknown;
  signatureScheme: 'draft-cavage' | 'rfc9421' | null;
  receivedAt: string;
  /** The request body, parsed. */
  raw: Record<string, unknown>;
  note?: string;
}

/** One POST to an inbox of the peer, with Fedify's answer (also failures that never reach a listener). */
export interface InboxRequest {
  path: string;
  status: number;
  signatureScheme: 'draft-cavage' | 'rfc9421' | null;
  answer: string;
  type: string | null;
  id: string | null;
  at: string;
}

/** One delivery the peer attempted. */
export interface SentActivity {
  id: string | null;
  type: string;
  recipients: (string | null)[];
  inboxes: (string | null)[];
  ok: boolean;
  error: string | null;
  at: string;
}

export interface PeerFollower { id: string; inbox: string; sharedInbox: string | null; followId: string | null }
export interface PeerFollowing { id: string; followId: string; state: 'pending' | 'accepted' | 'rejected' }

export interface LookupResult {
  resource: string;
  /** The JRD, when the resource is an acct: URI or handle. */
  webfinger: { subject: string; aliases?: string[]; links: { rel: string; type?: string; href?: string }[] } | null;
  /** Fedify's compact JSON-LD of what it parsed (not the remote bytes). */
  object: Record<string, unknown> | null;
  summary: {
    id: string | null;
    type: string;
    preferredUsername?: string | null;
    inbox?: string | null;
    outbox?: string | null;
    followers?: string | null;
    following?: string | null;
    sharedInbox?: string | null;
    publicKey?: { id: string | null; owner: string | null; pem: string | null; algorithm: string | null } | null;
  } | null;
  errors: string[];
}

export interface SendResult {
  id: string;
  /** The activity as the peer built it (id, actor and embedded object id filled in when missing). */
  activity: Record<string, unknown>;
  recipients: string[];
  inboxes: string[];
}

export interface FedifyPeer extends ManagedServer {
  port: number;
  /** https://localhost:PORT/ */
  url: string;
  /** https://localhost:PORT/users/peer */
  actorUrl: string;
  /** https://localhost:PORT/inbox */
  sharedInboxUrl: string;
  /** peer@localhost:PORT */
  handle: string;
  received(): Promise<ReceivedActivity[]>;
  /** Polls received() until `predicate` matches one (default timeout 15 s); rejects listing what did arrive. */
  waitFor(predicate: (activity: ReceivedActivity) => boolean, timeoutMs?: number): Promise<ReceivedActivity>;
  /** Sends a signed Follow to `target` (actor URL, acct:user@host or user@host); resolves once delivered. */
  follow(target: string): Promise<{ id: string; target: string; inboxes: string[] }>;
  /**
   * Signs and delivers `activity` from the peer actor to its to/cc/bto/bcc actors (or `recipients`);
   * the peer's followers collection IRI expands to its followers. Missing `@context`, `id`, `actor`
   * and embedded object `id` are filled in. Rejects when a delivery fails.
   */
  send(activity: Record<string, unknown>, options?: { recipients?: string[]; preferSharedInbox?: boolean }): Promise<SendResult>;
  /** WebFinger (for acct:/handles) and Fedify's lookupObject, run in the peer. */
  lookup(resource: string): Promise<LookupResult>;
  followers(): Promise<PeerFollower[]>;
  following(): Promise<PeerFollowing[]>;
  sent(): Promise<SentActivity[]>;
  requests(): Promise<InboxRequest[]>;
  /** Forgets received/sent/followers/following and Fedify's caches (the key pair stays). */
  reset(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

class FedifyPeerProcess extends ManagedProcess implements FedifyPeer {
  readonly url: string;
  readonly actorUrl: string;
  readonly sharedInboxUrl: string;
  readonly handle: string;

  constructor(
    private readonly options: StartFedifyPeerOptions,
    readonly port: number,
  ) {
    super('fedify-peer', 5_000);
    this.url = `https://localhost:${port}/`;
    this.actorUrl = `${this.url}users/peer`;
    this.sharedInboxUrl = `${this.url}inbox`;
    this.handle = `peer@localhost:${port}`;
  }

  protected async spawn(): Promise<SpawnedProcess> {
    const args = [
      PEER_PROGRAM, '--port', String(this.port), '--cert', this.options.certFile, '--key', this.options.keyFile,
      '--first-knock', this.options.firstKnock ?? 'draft-cavage-http-signatures-12', '--log-level', this.options.logLevel ?? 'info',
    ];
    return spawnLogged(process.execPath, args, { name: 'fedify-peer', env: tlsEnv(this.options), logFile: this.reusedLogFile });
  }

  protected async waitReady(abortIf: () => string | undefined): Promise<void> {
    const timeoutMs = this.options.startTimeoutMs ?? 30_000;
    const deadline = Date.now() + timeoutMs;
    let last = 'no answer';
    for (;;) {
      try {
        const answer = await httpsRequest(`${this.url}_test/health`, { timeoutMs: 5_000 }, this.options);
        if (answer.status === 200) return;
        last = `status ${answer.status}`;
      } catch (err) {
        last = String(err);
      }
      const reason = abortIf();
      if (reason !== undefined) throw new Error(`gave up waiting for ${this.url}: ${reason}`);
      if (Date.now() >= deadline) throw new Error(`${this.url}_test/health did not answer 200 within ${timeoutMs} ms (last: ${last})`);
      await sleep(150);
    }
  }

  protected startError(cause: unknown): Error {
    return new FedifyPeerStartError(
      `fedify peer (port ${this.port}) did not start: ${String(cause)}\n--- ${this.logFile} (tail) ---\n${tailFile(this.logFile, 60)}`,
      tailFile(this.logFile, 200),
    );
  }

  private async call(method: 'GET' | 'POST', route: string, body?: unknown): Promise<HttpsResult> {
    return httpsRequest(`${this.url}_test/${route}`, { method, body: body ?? (method === 'POST' ? {} : undefined) }, this.options);
  }

  private async get<T>(route: string): Promise<T> {
    const answer = await this.call('GET', route);
    if (answer.status !== 200) throw new Error(`peer GET /_test/${route}: ${answer.status} ${answer.body}`);
    return answer.json<T>();
  }

  received(): Promise<ReceivedActivity[]> {
    return this.get('received');
  }

  async waitFor(predicate: (activity: ReceivedActivity) => boolean, timeoutMs = 15_000): Promise<ReceivedActivity> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const received = await this.received();
      const found = received.find(predicate);
      if (found !== undefined) return found;
      if (Date.now() >= deadline) {
        const seen = received.map((a) => `${a.type} ${a.id ?? '(no id)'} from ${a.actor ?? '?'}${a.verified ? '' : ' (UNVERIFIED)'}`);
        const requests = (await this.requests()).map((r) => `POST ${r.path} ${r.type ?? '?'} -> ${r.status} ${r.answer}`);
        throw new Error(
          `peer: no matching activity within ${timeoutMs} ms.\nreceived:\n  ${seen.join('\n  ') || '(none)'}\n` +
            `inbox requests:\n  ${requests.join('\n  ') || '(none)'}\npeer log: ${this.logFile}`,
        );
      }
      await sleep(100);
    }
  }

  async follow(target: string): Promise<{ id: string; target: string; inboxes: string[] }> {
    const answer = await this.call('POST', 'follow', { target });
    if (answer.status !== 200) throw new Error(`peer follow ${target}: ${answer.status} ${answer.body}`);
    return answer.json();
  }

  async send(activity: Record<string, unknown>, options: { recipients?: string[]; preferSharedInbox?: boolean } = {}): Promise<SendResult> {
    const answer = await this.call('POST', 'send', { activity, ...options });
    if (answer.status !== 200) throw new Error(`peer send: ${answer.status} ${answer.body}`);
    return answer.json();
  }

  async lookup(resource: string): Promise<LookupResult> {
    const answer = await this.call('POST', 'lookup', { resource });
    if (answer.status !== 200 && answer.status !== 404) throw new Error(`peer lookup ${resource}: ${answer.status} ${answer.body}`);
    return answer.json();
  }

  followers(): Promise<PeerFollower[]> {
    return this.get('followers');
  }

  following(): Promise<PeerFollowing[]> {
    return this.get('following');
  }

  sent(): Promise<SentActivity[]> {
    return this.get('sent');
  }

  requests(): Promise<InboxRequest[]> {
    return this.get('requests');
  }

  async reset(): Promise<void> {
    const answer = await this.call('POST', 'reset');
    if (answer.status !== 200) throw new Error(`peer reset: ${answer.status} ${answer.body}`);
  }
}

export class FedifyPeerStartError extends Error {
  constructor(
    message: string,
    readonly logTail: string,
  ) {
    super(message);
    this.name = 'FedifyPeerStartError';
  }
}

/**
 * Starts a Fedify peer on https://localhost:PORT/ (a free port unless given)
 * trusting the CA (NODE_EXTRA_CA_CERTS) and serving `certFile`; resolves once
 * it answers. Retries once with another port if the chosen one was taken.
 */
export async function startFedifyPeer(options: StartFedifyPeerOptions): Promise<FedifyPeer> {
  for (let attempt = 1; ; attempt++) {
    const peer = new FedifyPeerProcess(options, options.port ?? (await freePort()));
    try {
      await peer.launch();
      return peer;
    } catch (err) {
      const portTaken = err instanceof FedifyPeerStartError && err.logTail.includes('EADDRINUSE');
      if (!(options.port === undefined && portTaken && attempt === 1)) throw err;
    }
  }
}
