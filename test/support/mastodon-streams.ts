/**
 * The Mastodon streaming API for tests: what a WebSocket received, kept in order, and waited for
 * (with a generous timeout, never a duration assertion).
 */
import WebSocket from 'ws';

export interface StreamEvent {
  stream: string[];
  event: string;
  /** The payload as sent: JSON text for statuses and notifications, the id for `delete`. */
  payload: string;
}

/** A raw streaming connection, as apps open it, and everything it received. */
export class RawStream {
  public readonly events: StreamEvent[] = [];
  public readonly errors: string[] = [];
  public closeCode?: number;

  private constructor(public readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Partial<StreamEvent> & { error?: string };
      if (message.error) {
        this.errors.push(message.error);
      } else {
        this.events.push(message as StreamEvent);
      }
    });
    socket.on('close', (code) => {
      this.closeCode = code;
    });
  }

  /** Opens `/api/v1/streaming` with the query, the token as masto.js sends it (Sec-WebSocket-Protocol) when given. */
  public static async open(baseUrl: string, query: string, token?: string): Promise<RawStream> {
    const url = `${baseUrl.replace(/^http/u, 'ws').replace(/\/$/u, '')}/api/v1/streaming${query}`;
    const socket = token ? new WebSocket(url, [ token ]) : new WebSocket(url);
    const stream = new RawStream(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return stream;
  }

  public send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  /**
   * Waits until the server has taken the token and the subscriptions sent so far: it answers a
   * subscription to no stream after them, in order.
   */
  public async ready(timeoutMs = 30_000): Promise<void> {
    const errors = this.errors.length;
    this.send({ type: 'subscribe', stream: 'no-such-stream' });
    const until = Date.now() + timeoutMs;
    while (this.errors.length === errors) {
      if (Date.now() > until) throw new Error('the stream never answered');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The first event (since `from`) that matches; rejects after `timeoutMs`. */
  public async waitFor(match: (event: StreamEvent) => boolean, timeoutMs = 30_000, from = 0): Promise<StreamEvent> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.slice(from).find(match);
      if (found) return found;
      if (Date.now() > until) throw new Error(`no matching event in time; got ${JSON.stringify(this.events.map((event) => event.event))}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  public async waitForClose(timeoutMs = 60_000): Promise<number> {
    const until = Date.now() + timeoutMs;
    while (this.closeCode === undefined) {
      if (Date.now() > until) throw new Error('the socket stayed open');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return this.closeCode;
  }

  public close(): void {
    this.socket.close();
  }
}

/** The content of an `update` event's status (its text for matching). */
export function contentOf(event: StreamEvent): string {
  const status = JSON.parse(event.payload) as { content?: string; reblog?: { content?: string } | null };
  return `${status.content ?? ''}${status.reblog?.content ?? ''}`;
}
