import http from 'node:http';
import https from 'node:https';
import { markBackendAgent } from '../util/BackendAgents';

export interface TransportResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface TransportRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs?: number;
}

/**
 * A small keep-alive HTTP client for talking to the triple store.
 * The store is hit on every request, so connection reuse matters more than features:
 * node:http with a keep-alive agent costs less per call than fetch.
 */
export class HttpTransport {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  public constructor(maxSockets = 64) {
    // The store is a configured backend, wherever it is: the outbound guard leaves these agents alone.
    this.httpAgent = markBackendAgent(new http.Agent({ keepAlive: true, maxSockets, keepAliveMsecs: 10_000 }));
    this.httpsAgent = markBackendAgent(new https.Agent({ keepAlive: true, maxSockets, keepAliveMsecs: 10_000 }));
  }

  public async send(request: TransportRequest): Promise<TransportResponse> {
    const url = new URL(request.url);
    const isHttps = url.protocol === 'https:';
    const headers: Record<string, string | number> = { ...request.headers };
    if (url.username || url.password) {
      headers.authorization = `Basic ${Buffer.from(
        `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`,
      ).toString('base64')}`;
    }
    if (request.body !== undefined) {
      headers['content-length'] = Buffer.byteLength(request.body);
    }
    const options: http.RequestOptions = {
      method: request.method,
      hostname: url.hostname.replace(/^\[|\]$/gu, ''),
      port: url.port || (isHttps ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers,
      agent: isHttps ? this.httpsAgent : this.httpAgent,
    };
    return new Promise<TransportResponse>((resolve, reject): void => {
      const req = (isHttps ? https : http).request(options, (res): void => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer): void => {
          chunks.push(chunk);
        });
        res.on('end', (): void => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      });
      req.setTimeout(request.timeoutMs ?? 30_000, (): void => {
        // ETIMEDOUT: callers tell a slow store from a refusing one by the code.
        req.destroy(Object.assign(new Error(`Request to ${url.origin}${url.pathname} timed out`), { code: 'ETIMEDOUT' }));
      });
      req.on('error', reject);
      if (request.body !== undefined) {
        req.write(request.body);
      }
      req.end();
    });
  }

  public close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
