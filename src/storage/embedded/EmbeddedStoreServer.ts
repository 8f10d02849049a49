import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BasicAuthGuard } from './BasicAuthGuard';
import type { DatasetRegistry } from './DatasetRegistry';
import type { DatasetServiceRouter } from './DatasetServiceRouter';
import type { FusekiAdminHandler } from './FusekiAdminHandler';
import type { ResponseSender } from './ResponseSender';
import type { StoreRequestContext } from './StoreRequestContext';

/** Grace period for in-flight requests on shutdown before connections are cut. */
const CLOSE_GRACE_MS = 5000;

/**
 * The HTTP face of the embedded store, shaped like Fuseki so clients written for
 * Fuseki (CSS's SparqlDataAccessor, deployment scripts) work unchanged.
 *
 * It listens before the datasets are recovered: binding the port first makes a
 * second instance on the same port fail before it touches the data directory.
 * Until `markReady()`, everything but `/$/ping` answers 503.
 * `/$/ping` needs no credentials (it is a liveness probe, as in Fuseki).
 */
export class EmbeddedStoreServer {
  private readonly server: Server;
  private ready = false;

  public constructor(
    private readonly registry: DatasetRegistry,
    private readonly guard: BasicAuthGuard,
    private readonly admin: FusekiAdminHandler,
    private readonly datasets: DatasetServiceRouter,
    private readonly sender: ResponseSender,
  ) {
    this.server = createServer({ keepAlive: true, noDelay: true }, (request, response): void => {
      this.dispatch(request, response).catch((error: unknown): void => {
        this.sender.error(response, error);
      });
    });
    // Longer than typical client pools' idle timeouts, so the client closes first.
    this.server.keepAliveTimeout = 65_000;
    this.server.headersTimeout = 66_000;
  }

  /** Binds; rejects with a clear message if the address is taken. Resolves the base URL. */
  public listen(port: number, host: string): Promise<string> {
    return new Promise<string>((resolve, reject): void => {
      const onError = (error: NodeJS.ErrnoException): void => {
        reject(error.code === 'EADDRINUSE' ?
          new Error(`Embedded store: ${host}:${port} is already in use (another store or Fuseki running?)`) :
          new Error(`Embedded store: cannot listen on ${host}:${port}: ${error.message}`));
      };
      this.server.once('error', onError);
      this.server.listen(port, host, (): void => {
        this.server.off('error', onError);
        const address = this.server.address() as AddressInfo;
        const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
        resolve(`http://${shownHost}:${address.port}`);
      });
    });
  }

  public markReady(): void {
    this.ready = true;
  }

  /** Stops accepting requests, lets in-flight ones finish (up to a grace period), then closes the datasets. */
  public async close(): Promise<void> {
    await new Promise<void>((resolve): void => {
      if (!this.server.listening) {
        resolve();
        return;
      }
      const timer = setTimeout((): void => this.server.closeAllConnections(), CLOSE_GRACE_MS);
      timer.unref();
      this.server.close((): void => {
        clearTimeout(timer);
        resolve();
      });
      this.server.closeIdleConnections();
    });
    await this.registry.close();
  }

  private async dispatch(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = request.url ?? '/';
    const questionMark = url.indexOf('?');
    const path = questionMark < 0 ? url : url.slice(0, questionMark);
    if (path === '/$/ping') {
      this.sender.send(response, 200, 'text/plain; charset=utf-8', `${new Date().toISOString()}\n`);
      return;
    }
    const auth = this.guard.check(request.headers.authorization);
    // Reads are the weakest permission; writes are checked again where they happen.
    if (!this.guard.permits(auth, false)) {
      this.sender.unauthorized(response);
      return;
    }
    if (!this.ready) {
      this.sender.text(response, 503, 'Error 503: store is starting (recovering datasets)', { 'retry-after': '1' });
      return;
    }
    const context: StoreRequestContext = {
      request,
      response,
      path,
      search: questionMark < 0 ? '' : url.slice(questionMark + 1),
      auth,
    };
    if (path.startsWith('/$/')) {
      await this.admin.handle(context);
    } else {
      await this.datasets.handle(context);
    }
  }
}
