import type { Duplex } from 'node:stream';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import type { OutboundBounds } from './GuardedAgents';
import { RemoteFetchError } from './OutboundErrors';
import type { SsrfGuard } from './SsrfGuard';

/**
 * Passes every event of a request on to its handler, and aborts the request when it has not completed
 * `timeoutMs` after its connection (undici's own timeouts are per wait, not per request).
 */
export class DeadlineHandler implements Dispatcher.DispatchHandlers {
  private timer?: NodeJS.Timeout;

  public constructor(private readonly handler: Dispatcher.DispatchHandlers, private readonly timeoutMs: number,
    private readonly origin: string) {}

  public onConnect(abort: (err?: Error) => void): void {
    clearTimeout(this.timer);
    this.timer = setTimeout((): void => {
      abort(new RemoteFetchError(`Request to ${this.origin} timed out after ${this.timeoutMs} ms`, true, 'ETIMEDOUT'));
    }, this.timeoutMs);
    this.timer.unref();
    this.handler.onConnect?.(abort);
  }

  public onError(err: Error): void {
    clearTimeout(this.timer);
    this.handler.onError?.(err);
  }

  public onUpgrade(statusCode: number, headers: Buffer[] | string[] | null, socket: Duplex): void {
    clearTimeout(this.timer);
    this.handler.onUpgrade?.(statusCode, headers, socket);
  }

  public onResponseStarted(): void {
    this.handler.onResponseStarted?.();
  }

  public onHeaders(statusCode: number, headers: Buffer[], resume: () => void, statusText: string): boolean {
    return this.handler.onHeaders?.(statusCode, headers, resume, statusText) ?? true;
  }

  public onData(chunk: Buffer): boolean {
    return this.handler.onData?.(chunk) ?? true;
  }

  public onComplete(trailers: string[] | null): void {
    clearTimeout(this.timer);
    this.handler.onComplete?.(trailers);
  }

  public onBodySent(chunkSize: number, totalBytesSent: number): void {
    this.handler.onBodySent?.(chunkSize, totalBytesSent);
  }
}

/** An undici Agent whose requests each have a deadline. */
class BoundedAgent extends Agent {
  public constructor(options: Agent.Options, private readonly timeoutMs: number) {
    super(options);
  }

  public override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandlers): boolean {
    return super.dispatch(options, new DeadlineHandler(handler, this.timeoutMs, String(options.origin ?? '')));
  }
}

/**
 * An undici dispatcher (for the global `fetch`) whose connections go through the SsrfGuard: an
 * IP-literal host is checked before connecting, a host name is resolved by the guard's lookup (the
 * server's own origin excepted). Each request has `timeoutMs` from its connection to its end, each
 * wait for a head or a body chunk the same, and its body at most `maxResponseBytes`.
 */
export function guardedDispatcher(guard: SsrfGuard, bounds: OutboundBounds): Dispatcher {
  return new BoundedAgent({
    connect: guardedConnector(guard, { timeout: bounds.timeoutMs }),
    headersTimeout: bounds.timeoutMs,
    bodyTimeout: bounds.timeoutMs,
    maxResponseSize: bounds.maxResponseBytes,
    // Rare requests: no connection kept for long.
    keepAliveTimeout: 1_000,
    keepAliveMaxTimeout: 1_000,
  }, bounds.timeoutMs);
}

/**
 * Opens undici's connections through the SsrfGuard: an IP-literal host is checked before connecting,
 * a host name is resolved by the guard's lookup (the server's own origin excepted). `options` are
 * undici's connector options (a connect timeout, a shared TLS context).
 */
export function guardedConnector(guard: SsrfGuard, options: buildConnector.BuildOptions): buildConnector.connector {
  const direct = buildConnector(options);
  const resolved = buildConnector({ ...options, lookup: guard.lookupFunction() });
  return (connection, callback): void => {
    const { refusal, usesLookup } = guard.connectionCheck(connection.protocol, connection.hostname, connection.port);
    if (refusal) {
      callback(refusal, null);
      return;
    }
    (usesLookup ? resolved : direct)(connection, callback);
  };
}
