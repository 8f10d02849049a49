import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PrometheusMetrics } from '../../../../src/plugins/observability/PrometheusMetrics';
import { CLIENT_CLOSED, RequestMonitor, type RouteLabel } from '../../../../src/handlers/server/RequestMonitor';
import { RouteTemplates } from '../../../../src/plugins/observability/RouteTemplates';
import { ToggledMetrics } from '../../../../src/plugins/observability/ToggledMetrics';
import { CapturingLoggerFactory } from '../../plugins/observability/support/CapturingLoggerFactory';

interface Answer {
  status: number;
  requestId: string | undefined;
}

describe('RequestMonitor', (): void => {
  let server: Server;
  let port: number;
  let factory: CapturingLoggerFactory;
  let metrics: ToggledMetrics;
  let serve: (request: IncomingMessage, response: ServerResponse, scope: RouteLabel) => Promise<void>;

  async function start(level: string): Promise<void> {
    factory = new CapturingLoggerFactory(level);
    metrics = new ToggledMetrics(new PrometheusMetrics(1000, 2000, false));
    const monitor = new RequestMonitor(factory, metrics, new RouteTemplates([ '/webhooks/:secret', '/notes/*' ]));
    server = createServer((request, response): void => {
      void monitor.track(request, response, async(scope): Promise<void> => serve(request, response, scope));
    });
    await new Promise<void>((resolve): void => {
      server.listen(0, '127.0.0.1', resolve);
    });
    port = (server.address() as AddressInfo).port;
  }

  async function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
    await response.text();
    return { status: response.status, requestId: response.headers.get('x-request-id') ?? undefined };
  }

  /** Resolves once `count` lines are logged (a request's line is written when its connection is done). */
  async function linesOf(component: string, count: number): Promise<Record<string, unknown>[]> {
    for (let tries = 0; tries < 200; tries += 1) {
      const lines = factory.parsed().filter((line): boolean => line.component === component);
      if (lines.length >= count) {
        return lines;
      }
      await new Promise((resolve): void => {
        setTimeout(resolve, 10);
      });
    }
    throw new Error(`fewer than ${count} ${component} lines: ${factory.lines.join('')}`);
  }

  afterEach(async(): Promise<void> => {
    server.closeAllConnections();
    await new Promise((resolve): void => {
      server.close(resolve);
    });
  });

  it('echoes a well-formed X-Request-Id, makes one otherwise, and logs one line per request', async(): Promise<void> => {
    await start('info');
    serve = async(request, response): Promise<void> => {
      factory.createLogger('Handler').warn(`serving ${request.url}`);
      response.writeHead(request.url === '/notes/a' ? 200 : 404).end('x');
    };
    const given = await get('/notes/a', { 'x-request-id': 'client-id-1' });
    expect(given).toEqual({ status: 200, requestId: 'client-id-1' });
    const made = await get('/nothing/here', { 'x-request-id': 'bad id with spaces' });
    expect(made.requestId).toMatch(/^[0-9a-f-]{36}$/u);
    const lines = await linesOf('http', 2);
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'request', reqId: 'client-id-1', method: 'GET', route: '/notes/*', status: 200 });
    expect(typeof lines[0].ms).toBe('number');
    expect(lines[1]).toMatchObject({ reqId: made.requestId, route: 'other', status: 404 });
    // Lines written while serving carry the request's id.
    const handlerLines = await linesOf('Handler', 2);
    expect(handlerLines.map((line): unknown => line.reqId)).toEqual([ 'client-id-1', made.requestId ]);
  });

  it('logs the route template, never the path of a webhook', async(): Promise<void> => {
    await start('info');
    serve = async(_request, response): Promise<void> => {
      response.writeHead(202).end();
    };
    await get('/webhooks/TOP-SECRET-VALUE');
    const [ line ] = await linesOf('http', 1);
    expect(line).toMatchObject({ route: '/webhooks/:secret', status: 202 });
    expect(factory.lines.join('')).not.toContain('TOP-SECRET-VALUE');
  });

  it('labels a request with the template the route table matched, before its own templates', async(): Promise<void> => {
    await start('info');
    serve = async(_request, response, scope): Promise<void> => {
      scope.route = '/objects/:id';
      response.writeHead(200).end();
    };
    await get('/notes/shadowed');
    const [ line ] = await linesOf('http', 1);
    expect(line).toMatchObject({ route: '/objects/:id', status: 200 });
  });

  it('counts requests in the metrics when they are on', async(): Promise<void> => {
    await start('warn');
    metrics.enable();
    serve = async(_request, response): Promise<void> => {
      response.writeHead(201).end();
    };
    await get('/notes/1');
    await get('/notes/2');
    let body = '';
    for (let tries = 0; tries < 200 && !body.includes('status="201"} 2'); tries += 1) {
      ({ body } = await metrics.expose());
      await new Promise((resolve): void => {
        setTimeout(resolve, 10);
      });
    }
    expect(body).toContain('fedpod_http_requests_total{method="GET",route="/notes/*",status="201"} 2');
    // Below info, no request lines.
    expect(factory.lines).toHaveLength(0);
  });

  it(`records ${CLIENT_CLOSED} for a request whose client went away before the answer`, async(): Promise<void> => {
    await start('info');
    let release = (): void => undefined;
    let started = false;
    serve = async(_request, response): Promise<void> => {
      started = true;
      await new Promise<void>((resolve): void => {
        release = resolve;
      });
      response.writeHead(200).end();
    };
    const client = httpRequest({ host: '127.0.0.1', port, path: '/notes/slow' });
    client.on('error', (): void => undefined);
    client.end();
    for (let tries = 0; tries < 500 && !started; tries += 1) {
      await new Promise((resolve): void => {
        setTimeout(resolve, 10);
      });
    }
    client.destroy();
    const [ line ] = await linesOf('http', 1);
    expect(line).toMatchObject({ route: '/notes/*', status: CLIENT_CLOSED });
    release();
  });
});

describe('RequestMonitor without carried ids', (): void => {
  it('still answers X-Request-Id and logs the request line with it, but other lines have no id', async(): Promise<void> => {
    const factory = new CapturingLoggerFactory('info');
    const monitor = new RequestMonitor(factory, new ToggledMetrics(new PrometheusMetrics(1000, 2000, false)), new RouteTemplates([]), false);
    const server = createServer((request, response): void => {
      void monitor.track(request, response, async(): Promise<void> => {
        factory.createLogger('Handler').warn('inside');
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve): void => {
      server.listen(0, '127.0.0.1', resolve);
    });
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`, { headers: { 'x-request-id': 'plain-1' } });
    expect(response.headers.get('x-request-id')).toBe('plain-1');
    for (let tries = 0; tries < 200 && factory.lines.length < 2; tries += 1) {
      await new Promise((resolve): void => {
        setTimeout(resolve, 10);
      });
    }
    const lines = factory.parsed();
    expect(lines.find((line): boolean => line.component === 'http')).toMatchObject({ reqId: 'plain-1', route: 'other', status: 204 });
    expect(lines.find((line): boolean => line.component === 'Handler')?.reqId).toBeUndefined();
    server.closeAllConnections();
    await new Promise((resolve): void => {
      server.close(resolve);
    });
  });
});
