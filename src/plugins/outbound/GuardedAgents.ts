import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { RemoteFetchError } from './OutboundErrors';
import type { SsrfGuard } from './SsrfGuard';

/** What one request of this server to another may cost. */
export interface OutboundBounds {
  /** Longest one request may take, connecting included, in ms. */
  timeoutMs: number;
  /** Most bytes one response may have (its head included, for the agents' connections). */
  maxResponseBytes: number;
}

export const DEFAULT_OUTBOUND_BOUNDS: Readonly<OutboundBounds> = Object.freeze({ timeoutMs: 10_000, maxResponseBytes: 1_048_576 });

/**
 * Marks an agent that checks its own connections (these agents, RemoteFetcher's): the process-wide
 * backstop (ProcessOutboundGuard) does not check them a second time.
 */
export const SELF_GUARDED_AGENT = Symbol.for('fedpod.outbound.selfGuardedAgent');

type ConnectCallback = (error: Error | null, stream: Duplex) => void;
type Opener = (options: http.ClientRequestArgs) => Duplex | null | undefined;

/**
 * Opens a connection for an agent after the guard's check: a refused one fails the request (through
 * the agent's callback) before any socket exists; a host name is resolved by the guard's lookup,
 * whatever lookup the caller gave, unless it is the server's own origin.
 */
export function openGuarded(guard: SsrfGuard, protocol: string, options: http.ClientRequestArgs, callback: ConnectCallback | undefined,
  open: Opener): Duplex | null | undefined {
  const { refusal, usesLookup } = guard.connectionCheck(protocol, options.host ?? options.hostname, options.port, options.socketPath);
  if (refusal) {
    if (!callback) {
      throw refusal;
    }
    process.nextTick((): void => callback(refusal, undefined as unknown as Duplex));
    return undefined;
  }
  return open(usesLookup ? { ...options, lookup: guard.lookupFunction() } : options);
}

/**
 * Bounds one connection of an agent that keeps none alive (so a connection is one request): it is
 * destroyed once it has been open `timeoutMs`, or has received more than `maxResponseBytes`. Bytes
 * are counted as the socket pushes them to its readers, without a 'data' listener of its own: a
 * client may take a listener still there when the response ends for a body cut short (node-fetch does).
 */
function bound<T extends Duplex | null | undefined>(socket: T, bounds: OutboundBounds, where: string): T {
  if (!socket) {
    return socket;
  }
  let received = 0;
  const timer = setTimeout((): void => {
    socket.destroy(new RemoteFetchError(`Request to ${where} timed out after ${bounds.timeoutMs} ms`, true, 'ETIMEDOUT'));
  }, bounds.timeoutMs);
  timer.unref();
  const push = socket.push.bind(socket);
  socket.push = (chunk: unknown, encoding?: BufferEncoding): boolean => {
    if (chunk !== null && chunk !== undefined) {
      received += (chunk as { length: number }).length;
      if (received > bounds.maxResponseBytes) {
        socket.destroy(new RemoteFetchError(`The response from ${where} is larger than ${bounds.maxResponseBytes} bytes`, false, 'TOO_LARGE'));
        return false;
      }
    }
    return push(chunk, encoding);
  };
  socket.once('close', (): void => clearTimeout(timer));
  return socket;
}

function describe(protocol: string, options: http.ClientRequestArgs): string {
  return `${protocol}//${options.host ?? options.hostname ?? 'localhost'}${options.port ? `:${options.port}` : ''}`;
}

/**
 * An http agent whose every connection goes through the SsrfGuard and is bounded in time and size.
 * No keep-alive: the requests that use it are rare (documents of other servers a request needs), and a
 * connection per request is what makes the bounds per request.
 */
export class GuardedHttpAgent extends http.Agent {
  public readonly [SELF_GUARDED_AGENT]: boolean;

  /**
   * @param guard - Checks each connection. Without one (Node makes an agent of the global agent's class
   *   for a request with `agent: false`), the process-wide guard does (ProcessOutboundGuard).
   * @param bounds - Time and size of each request.
   * @param options - Node's agent options (never keep-alive).
   */
  public constructor(private readonly guard?: SsrfGuard, private readonly bounds: OutboundBounds = DEFAULT_OUTBOUND_BOUNDS,
    options: http.AgentOptions = {}) {
    super({ ...options, keepAlive: false });
    this[SELF_GUARDED_AGENT] = guard !== undefined;
  }

  public override createConnection(options: http.ClientRequestArgs, callback?: ConnectCallback): Duplex | null | undefined {
    const open = (checked: http.ClientRequestArgs): Duplex | null | undefined =>
      bound(super.createConnection(checked, callback), this.bounds, describe('http:', options));
    return this.guard ? openGuarded(this.guard, 'http:', options, callback, open) : open(options);
  }
}

/** As GuardedHttpAgent, for https. */
export class GuardedHttpsAgent extends https.Agent {
  public readonly [SELF_GUARDED_AGENT]: boolean;

  /** As GuardedHttpAgent's. */
  public constructor(private readonly guard?: SsrfGuard, private readonly bounds: OutboundBounds = DEFAULT_OUTBOUND_BOUNDS,
    options: https.AgentOptions = {}) {
    super({ ...options, keepAlive: false });
    this[SELF_GUARDED_AGENT] = guard !== undefined;
  }

  public override createConnection(options: https.RequestOptions, callback?: ConnectCallback): Duplex | null | undefined {
    const open = (checked: https.RequestOptions): Duplex | null | undefined =>
      bound(super.createConnection(checked, callback), this.bounds, describe('https:', options));
    return this.guard ? openGuarded(this.guard, 'https:', options, callback, open) : open(options);
  }
}
