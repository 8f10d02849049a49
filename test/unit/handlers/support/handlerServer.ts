import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpHandler, HttpRequest } from '@solid/community-server';
import { guardStream } from '@solid/community-server';

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
 * chain does (canHandle, then handle); a request it refuses gets a bare 404 marked with DECLINED. `prepare` runs first on
 * each request, for what the pipeline would have done before the handler (setting its agent).
 */
export async function serveHandler(handler: HttpHandler, prepare?: (request: HttpRequest) => void): Promise<HandlerServer> {
  const server = createServer((raw, response): void => {
    const request = guardStream(raw);
    prepare?.(request);
    void handler.canHandle({ request, response }).then(
      async(): Promise<void> => handler.handle({ request, response }),
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
