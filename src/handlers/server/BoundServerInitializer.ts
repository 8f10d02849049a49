import type { Server } from 'node:http';
import type { Finalizable, HttpServerFactory } from '@solid/community-server';
import { getLoggerFor, Initializer } from '@solid/community-server';
import { answerMalformedRequests } from './MalformedRequestAnswer';

/**
 * Starts the HTTP server on `port` and `host` (CSS's ServerInitializer listens on every interface
 * and reports a busy port only as an unhandled error after start-up). Start-up waits until the
 * server listens, and fails with the port named when it cannot, so `ready` is never claimed for a
 * server that is not there. Requests Node's parser refuses are answered in Fedpod's JSON error shape.
 * Closes the server at shutdown.
 */
export class BoundServerInitializer extends Initializer implements Finalizable {
  protected readonly logger = getLoggerFor(this);
  private server?: Server;

  /**
   * @param host - Address to bind; empty for every interface.
   */
  public constructor(
    private readonly serverFactory: HttpServerFactory,
    private readonly port: number,
    private readonly host = '',
  ) {
    super();
  }

  public async handle(): Promise<void> {
    const server = await this.serverFactory.createServer();
    answerMalformedRequests(server);
    this.server = server;
    await new Promise<void>((resolve, reject): void => {
      const failed = (error: NodeJS.ErrnoException): void => {
        reject(new Error(error.code === 'EADDRINUSE' ?
          `--port ${this.port}${this.host ? ` on ${this.host}` : ''} is in use by another process` :
          `cannot listen on --port ${this.port}${this.host ? ` --host ${this.host}` : ''}: ${error.message}`));
      };
      server.once('error', failed);
      server.listen(this.port, this.host || undefined, (): void => {
        server.off('error', failed);
        resolve();
      });
    });
    this.logger.info(`Listening on ${this.host || 'every interface'}, port ${this.port}`);
  }

  public async finalize(): Promise<void> {
    const server = this.server;
    if (server?.listening) {
      await new Promise<void>((resolve): void => {
        server.close((): void => resolve());
      });
    }
  }
}
