import { createServer } from 'node:http';
import type { Server } from 'node:http';

/**
 * Holds the server's port while the embedded store loads its data, answering every request
 * (`/readyz` and `/healthz` included) 503 `{ "error": "not_ready", "message": <phase> }` with
 * Retry-After, so load balancers and probes see "not ready" instead of a refused connection and
 * clients are told when to come back. Closed just before the server itself binds the port.
 *
 * `/healthz` answers 503 too: it means "serving", and tools (ours, process managers) take its 200
 * for the end of start-up. Orchestrators should give a slow start room with a start-up probe.
 */
export class StartupResponder {
  private readonly server: Server;
  private phase: string;

  /**
   * @param phase - What start-up is doing, the `message` of every answer.
   * @param retryAfterSeconds - The Retry-After of every answer.
   */
  public constructor(phase: string, private readonly retryAfterSeconds = 1) {
    this.phase = phase;
    this.server = createServer((request, response): void => {
      // Every answer closes its connection: a kept-alive socket would outlive this server.
      request.resume();
      // Written here rather than with HttpUtil: this runs before the server's modules are loaded.
      const body = JSON.stringify({ error: 'not_ready', message: this.phase });
      response.writeHead(503, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        'retry-after': String(this.retryAfterSeconds),
        'cache-control': 'no-store',
        connection: 'close',
      });
      response.end(body);
    });
  }

  /** Binds `port` on `host` (empty for every interface); rejects if it cannot. */
  public listen(port: number, host: string): Promise<void> {
    return new Promise<void>((resolve, reject): void => {
      this.server.once('error', reject);
      this.server.listen(port, host || undefined, (): void => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  /** Changes the `message` of later answers. */
  public setPhase(phase: string): void {
    this.phase = phase;
  }

  /** Stops listening and drops every connection, so the port is free for the server. */
  public async close(): Promise<void> {
    if (!this.server.listening) {
      return;
    }
    await new Promise<void>((resolve): void => {
      this.server.close((): void => resolve());
      this.server.closeAllConnections();
    });
  }
}
