/**
 * Minimal SPARQL protocol client for tests that look into the store directly.
 * Always POSTs url-encoded forms: Virtuoso 7.2 hangs on a POST with
 * Content-Type application/sparql-query, so that form is never used here.
 */
import * as http from 'node:http';

export interface HttpResult {
  status: number;
  contentType: string;
  body: string;
}

/** One request without keep-alive (no socket left to hold jest open). */
export function httpRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<HttpResult> {
  const { method = 'GET', headers = {}, body, timeoutMs = 30_000 } = options;
  // Virtuoso 7.2 ignores a chunked request body: it answers 200 with its HTML
  // query form and silently runs nothing. So always send a Content-Length.
  const allHeaders = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: allHeaders, agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'] ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

async function postForm(endpoint: string, field: 'query' | 'update', text: string, accept: string): Promise<HttpResult> {
  const result = await httpRequest(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept },
    body: new URLSearchParams({ [field]: text }).toString(),
  });
  if (result.status !== 200) {
    throw new Error(`SPARQL ${field} failed with ${result.status}: ${result.body.slice(0, 500)}\n${text}`);
  }
  // The HTML query form instead of a result means the request was not understood.
  if (result.contentType.startsWith('text/html')) {
    throw new Error(`SPARQL ${field} got Virtuoso's HTML form instead of a result:\n${text}`);
  }
  return result;
}

/** An RDF term as in application/sparql-results+json. */
export interface Term {
  type: 'uri' | 'literal' | 'bnode' | 'typed-literal';
  value: string;
  datatype?: string;
  'xml:lang'?: string;
}
export type Bindings = Record<string, Term>;

interface SelectJson {
  results: { bindings: Bindings[] };
}
interface AskJson {
  boolean: boolean;
}

export async function sparqlSelect(endpoint: string, query: string): Promise<Bindings[]> {
  const result = await postForm(endpoint, 'query', query, 'application/sparql-results+json');
  return (JSON.parse(result.body) as SelectJson).results.bindings;
}

export async function sparqlAsk(endpoint: string, query: string): Promise<boolean> {
  const result = await postForm(endpoint, 'query', query, 'application/sparql-results+json');
  return (JSON.parse(result.body) as AskJson).boolean;
}

/** Runs a SPARQL 1.1 Update (INSERT DATA, DELETE WHERE, DROP GRAPH ...). */
export async function sparqlUpdate(endpoint: string, update: string): Promise<void> {
  await postForm(endpoint, 'update', update, 'application/sparql-results+json, */*;q=0.1');
}
