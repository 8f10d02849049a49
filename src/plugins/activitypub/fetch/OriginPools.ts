import type { Socket } from 'node:net';
import type { buildConnector, Dispatcher } from 'undici';
import { Pool } from 'undici';
import { DeadlineHandler } from '../../outbound/GuardedDispatcher';
import { RemoteFetchError } from './FetchErrors';

export interface OriginPoolsOptions {
  /** Opens each connection (the outbound guard's connector). */
  connect: buildConnector.connector;
  /** Connections to one origin at most. */
  connectionsPerOrigin: number;
  /** How long a connection is kept idle (less where the server announces less). */
  idleMs: number;
  /**
   * Connections kept open across all origins, at most, counted as they open and close: past it, the
   * origins used longest ago with nothing in flight have theirs closed (and their pools forgotten).
   */
  maxSockets: number;
  /** One POST from its start on a connection to the end of its answer, at most. */
  timeoutMs: number;
  /** Answer bytes read at most; past them the connection is closed (the status is all that is kept). */
  maxResponseBytes: number;
}

export interface PostAnswer {
  status: number;
  /** The Retry-After header, as sent. */
  retryAfter?: string;
}

const RETRY_AFTER = 'retry-after';

/**
 * One POST's answer read straight from undici's handler events: its status and Retry-After; the body
 * is counted and dropped, never buffered or made a stream (a delivery needs the status only). Its
 * deadline is DeadlineHandler's, around it.
 */
class PostExchange implements Dispatcher.DispatchHandlers {
  private status = 0;
  private retryAfter?: string;
  private size = 0;
  private abort?: (error?: Error) => void;
  private settled = false;

  public constructor(
    private readonly maxBytes: number,
    private readonly resolve: (answer: PostAnswer) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  public onConnect(abort: (error?: Error) => void): void {
    this.abort = abort;
  }

  public onHeaders(statusCode: number, headers: Buffer[]): boolean {
    this.status = statusCode;
    for (let index = 0; index + 1 < headers.length; index += 2) {
      const name = headers[index];
      if (name.length === RETRY_AFTER.length && name.toString().toLowerCase() === RETRY_AFTER) {
        this.retryAfter = headers[index + 1].toString();
      }
    }
    return true;
  }

  public onData(chunk: Buffer): boolean {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      // The status is known: answered now, and the rest of the body is not read (the connection is closed).
      this.settle();
      this.abort?.();
    }
    return true;
  }

  public onComplete(): void {
    this.settle();
  }

  public onError(error: Error): void {
    if (!this.settled) {
      this.settled = true;
      this.reject(error);
    }
  }

  private settle(): void {
    if (!this.settled) {
      this.settled = true;
      this.resolve(this.retryAfter === undefined ? { status: this.status } : { status: this.status, retryAfter: this.retryAfter });
    }
  }
}

/**
 * Keep-alive connections for deliveries, one undici pool per origin. A delivery is a POST whose
 * answer is a status: undici's HTTP/1.1 client spends about half the CPU of node:http's per request
 * (bench/federation: 8% less sender CPU per delivery in all, the rest being the signature, TLS and
 * the queue), and this handler reads the status without making a stream of the body.
 */
export class OriginPools {
  /** Pools by origin, the one used longest ago first (a Map keeps insertion order; a use moves it last). */
  private readonly pools = new Map<string, Pool>();
  private readonly connect: buildConnector.connector;
  private sockets = 0;
  private closed = false;

  public constructor(private readonly options: OriginPoolsOptions) {
    this.connect = (connection, callback): void => {
      options.connect(connection, (error, socket): void => {
        if (socket) {
          this.sockets += 1;
          (socket as Socket).once('close', (): void => {
            this.sockets -= 1;
          });
        }
        // The connector's callback takes (error, null) or (null, socket).
        (callback as (error: Error | null, socket: unknown) => void)(error, socket);
      });
    };
  }

  /** Connections open now, across all origins. */
  public get openSockets(): number {
    return this.sockets;
  }

  /**
   * POSTs `body` to `url` (its `host` header, if any, is sent as given). `reused` in a rejection
   * tells whether the request went out on a connection kept from before, so that a connection the
   * server closed while idle can be told from a server that closes on every request.
   */
  public async post(url: URL, headers: Record<string, string>, body: string | Buffer): Promise<PostAnswer> {
    if (this.closed) {
      throw new RemoteFetchError(`Request to ${url.origin} not sent: the server is stopping`, true, 'ECLOSED');
    }
    const pool = this.poolOf(url.origin);
    const reused = pool.stats.free > 0;
    try {
      return await new Promise<PostAnswer>((resolve, reject): void => {
        pool.dispatch({ origin: url.origin, path: `${url.pathname}${url.search}`, method: 'POST', headers, body },
          new DeadlineHandler(new PostExchange(this.options.maxResponseBytes, resolve, reject), this.options.timeoutMs, url.origin));
      });
    } catch (error: unknown) {
      if (reused && error instanceof Error) {
        Object.defineProperty(error, 'reusedSocket', { value: true });
      }
      throw error;
    } finally {
      this.keepWithinBounds();
    }
  }

  /** Closes every connection (requests in flight fail). */
  public close(): void {
    this.closed = true;
    for (const pool of this.pools.values()) {
      pool.destroy().catch((): void => undefined);
    }
    this.pools.clear();
  }

  private poolOf(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (pool) {
      this.pools.delete(origin);
    } else {
      pool = new Pool(origin, {
        connect: this.connect,
        connections: this.options.connectionsPerOrigin,
        keepAliveTimeout: this.options.idleMs,
        keepAliveMaxTimeout: this.options.idleMs,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
    }
    this.pools.set(origin, pool);
    return pool;
  }

  /** Past the bounds, closes the pools of the origins used longest ago that have nothing in flight. */
  private keepWithinBounds(): void {
    let sockets = this.sockets;
    for (const [ origin, pool ] of this.pools) {
      if (sockets <= this.options.maxSockets && this.pools.size <= this.options.maxSockets) {
        return;
      }
      const { connected, pending, running } = pool.stats;
      if (pending === 0 && running === 0) {
        this.pools.delete(origin);
        sockets -= connected;
        pool.destroy().catch((): void => undefined);
      }
    }
  }
}
