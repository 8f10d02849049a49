import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpHandler, HttpRequest } from '@solid/community-server';
import { guardStream } from '@solid/community-server';
import { Operation } from '../../../../src/handlers/http/Operation';

/** The header that marks the answer to a request the handler refused (canHandle threw). */
export const DECLINED = 'x-handler-declined';

/** Whether the handler refused the request (rather than taking it and answering 404 itself). */
export function declined(response: Response): boolean {
  return response.headers.get(DECLINED) === 'true';
}

export interface HandlerServer {
  /** http://127.0.0.1:PORT (no trailing slash). */
  base: string;
  close: () => Promise<void>;
}

/**
 * A real HTTP server on loopback that offers every request to one handler, as Fedpod's handler
 * chain does (canHandle, then handle); a request it refuses gets a bare 404 marked with DECLINED.
 * Each request comes with its operation, as the pipeline builds it (target on `baseUrl`'s origin,
 * anonymous; a target that is not a valid path gets the pipeline's 400). `prepare` runs first on
 * each request, for what the pipeline's other steps would have done (authenticating its agent,
 * recording an access decision). `paramsOf` gives the route's parameters of a path, as the route table would.
 */
export async function serveHandler(handler: HttpHandler, prepare?: (request: HttpRequest, operation: Operation) => Promise<void> | void,
  baseUrl = 'https://pod.example/', paramsOf?: (path: string) => Record<string, string>): Promise<HandlerServer> {
  const origin = new URL(baseUrl).origin;
  const server = createServer((raw, response): void => {
    const request = guardStream(raw);
    const target = Operation.parseTarget(origin, request.url ?? '/');
    if (!target) {
      response.writeHead(400).end();
      return;
    }
    request.url = `${target.path}${target.search}`;
    const operation = new Operation({ request, response, target, params: paramsOf?.(target.path) }).bind(request);
    const input = { request, response, operation };
    void Promise.resolve(prepare?.(request, operation)).then(async(): Promise<void> => handler.canHandle(input)).then(
      async(): Promise<void> => handler.handle(input),
      (): void => {
        response.writeHead(404, { [DECLINED]: 'true' }).end();
      },
    );
  });
  await new Promise<void>((resolve): void => {
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async(): Promise<void> => {
      server.closeAllConnections();
      await new Promise((resolve): void => {
        server.close(resolve);
      });
    },
  };
}
