/**
 * One HTTP request from the fault tests, without keep-alive: a server killed mid-load must not
 * leave pooled sockets behind (the next request would land on a dead one), and nothing may hold
 * jest open afterwards. Rejects when no answer came (refused, reset, timed out).
 */
import * as http from 'node:http';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Default 30 s: a server that hangs is a failure, never a wait. */
  timeoutMs?: number;
}

export function request(url: string, options: RequestOptions = {}): Promise<Answer> {
  const { method = 'GET', timeoutMs = 30_000 } = options;
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a value (not undefined); rejects with `what` after `timeoutMs`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000, intervalMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`${what}: not so within ${timeoutMs} ms${lastError === undefined ? '' : ` (last error: ${String(lastError)})`}`);
    }
    await sleep(intervalMs);
  }
}
