import type { Quad, Term } from '@rdfjs/types';
import { FedpodHttpError } from '../util/HttpErrors';
import { DataFactory, Parser } from 'n3';
import { performance } from 'node:perf_hooks';
import type { StoreRequestObserver } from './StoreRequestObserver';
import { NO_STORE_OBSERVER } from './StoreRequestObserver';
import { HttpTransport } from './HttpTransport';
import type { TransportResponse } from './HttpTransport';
import type { StoreQueries } from './StoreQueries';
import { StoreUnavailableHttpError } from './StoreUnavailableHttpError';
import { errnoOf } from '../util/Errors';
import { GroupCommit } from '../util/GroupCommit';
import { InProcessStores } from './embedded/InProcessStores';

const { namedNode, literal, blankNode } = DataFactory;

export type Bindings = Record<string, Term>;

interface JsonBindingValue {
  type: 'uri' | 'literal' | 'typed-literal' | 'bnode';
  value: string;
  datatype?: string;
  'xml:lang'?: string;
}

/** Transport error codes that mean the store is not there (yet, or any more), or did not answer in time. */
const UNREACHABLE = new Set([ 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN' ]);
const SEND_ATTEMPTS = 3;
/** Statuses by which a store refuses a request's content (not its credentials or its address). */
const REFUSED_CONTENT = new Set([ 400, 413, 414, 422 ]);
/** Virtuoso answers 500 to data it cannot take: SQLSTATE class 22 (bad value) and 37000 (SPARQL/SQL compile). */
const VIRTUOSO_CONTENT_ERROR = /^Virtuoso (?:22\w{3}|37000) /u;
const RETRY_DELAY_MS = 100;
/** Bounds of one grouped update request (see SparqlClient.update). */
const MAX_GROUPED_UPDATES = 64;
const MAX_GROUPED_UPDATE_CHARS = 512 * 1024;

/**
 * The dataset a Fuseki-style endpoint URL names (`/{ds}`, `/{ds}/sparql`, or `/{ds}/{service}`),
 * or undefined for any other URL (Virtuoso's `/sparql`, a query string): only such a URL can be an
 * embedded store of this process.
 */
function datasetOf(url: URL, service: 'query' | 'update'): string | undefined {
  const segments = url.pathname.split('/').filter((segment): boolean => segment.length > 0);
  if (url.search || segments.length === 0 || segments.length > 2 || segments[0].startsWith('$')) {
    return undefined;
  }
  return segments.length === 1 || segments[1] === service || segments[1] === 'sparql' ? decodeURIComponent(segments[0]) : undefined;
}

/**
 * SPARQL 1.1 Protocol client.
 *
 * Portable across Fuseki, Oxigraph's face and Virtuoso:
 * - queries go form-encoded (`query=`) because Virtuoso hangs on `application/sparql-query` bodies;
 * - updates go form-encoded (`update=`), and any 2xx (Virtuoso answers 200 with a result set) is success;
 * - JSON results may carry Virtuoso's `typed-literal` and `"0"`/`"1"` booleans.
 * Query text must be built with SparqlTerms; this class never inserts values into queries.
 */
export class SparqlClient implements StoreQueries {
  private readonly transport = new HttpTransport();
  private readonly authorization?: string;
  /** Where the endpoints would be on an embedded store of this process (InProcessStores). */
  private readonly inProcess: { origin: string; query?: string; update?: string };
  private readonly updates = new GroupCommit<string>(async(texts): Promise<void> => this.sendUpdate(texts.join('\n;\n')), {
    maxItems: MAX_GROUPED_UPDATES,
    maxWeight: MAX_GROUPED_UPDATE_CHARS,
    weigh: (text): number => text.length,
    failsAll: (error): boolean => error instanceof StoreUnavailableHttpError,
  });

  /**
   * @param queryUrl - URL that answers SPARQL queries (Fuseki: {base}/{ds}/query; Virtuoso: {base}/sparql).
   * @param updateUrl - URL that accepts SPARQL updates (Fuseki: {base}/{ds}/update; Virtuoso: {base}/sparql).
   * @param user - Basic auth user; empty for none.
   * @param password - Basic auth password.
   * @param timeoutMs - Per-request timeout.
   * @param metrics - Where query and update latencies are recorded.
   */
  public constructor(
    public readonly queryUrl: string,
    public readonly updateUrl: string,
    user = '',
    password = '',
    private readonly timeoutMs = 30_000,
    private readonly metrics: StoreRequestObserver = NO_STORE_OBSERVER,
  ) {
    if (user !== '') {
      this.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    }
    const query = new URL(queryUrl);
    const update = new URL(updateUrl);
    this.inProcess = { origin: query.origin, query: datasetOf(query, 'query'),
      update: update.origin === query.origin ? datasetOf(update, 'update') : undefined };
  }

  public async select(query: string): Promise<Bindings[]> {
    const response = await this.postQuery(query, 'application/sparql-results+json');
    const json = JSON.parse(response.body) as { results?: { bindings: Record<string, JsonBindingValue>[] } };
    if (!json.results) {
      throw new Error('The store answered a SELECT without results');
    }
    return json.results.bindings.map((row): Bindings => {
      const out: Bindings = {};
      for (const [ name, value ] of Object.entries(row)) {
        out[name] = this.toTerm(value);
      }
      return out;
    });
  }

  /**
   * Every row of a SELECT that ends in ORDER BY, read in chunks with LIMIT and OFFSET: some stores
   * (Virtuoso) cut an answer at 10,000 rows.
   */
  public async selectAll(orderedQuery: string, chunk = 5000): Promise<Bindings[]> {
    const rows: Bindings[] = [];
    for (let offset = 0; ; offset += chunk) {
      const page = await this.select(`${orderedQuery} LIMIT ${chunk} OFFSET ${offset}`);
      rows.push(...page);
      if (page.length < chunk) {
        return rows;
      }
    }
  }

  public async ask(query: string): Promise<boolean> {
    const response = await this.postQuery(query, 'application/sparql-results+json');
    const json = JSON.parse(response.body) as { boolean?: boolean | string | number };
    const value = json.boolean;
    return value === true || value === 'true' || value === '1' || value === 1;
  }

  public async construct(query: string): Promise<Quad[]> {
    const response = await this.postQuery(query, 'application/n-triples, text/turtle;q=0.9, text/plain;q=0.5');
    return new Parser({ format: this.rdfFormat(response) }).parse(response.body);
  }

  /** Sends the query as-is and returns the raw answer, for proxying (the /sparql endpoint). */
  public async rawQuery(query: string, accept: string): Promise<TransportResponse> {
    return this.postQuery(query, accept, false);
  }

  /**
   * Sends an update. Updates asked for while another request of updates is under way go to the store
   * together, as the operations of one request (a group commit: one round trip, and on the embedded
   * store one log write and sync, for many writers); each resolves once the store took the request.
   * A request the store refuses is sent again one update at a time, so a bad update fails alone.
   * The operations of one request run in order, each seeing the ones before it; updates of different
   * callers never depended on each other's order, as they were in flight at the same time.
   * Updates must be idempotent (every one Fedpod sends is: data inserts and deletes, dates replaced,
   * counts stored rather than incremented): a store that applied part of a refused request
   * (Virtuoso does not roll one back) has those updates applied again when they are sent alone.
   */
  public async update(update: string): Promise<void> {
    return this.updates.add(update);
  }

  private async sendUpdate(update: string): Promise<void> {
    const response = await this.send('update', update, '*/*');
    this.assertOk(response, 'update');
  }

  public async probe(): Promise<void> {
    await this.ask('ASK {}');
  }

  /** True when the store answers a trivial ASK. */
  public async ping(): Promise<boolean> {
    try {
      await this.probe();
      return true;
    } catch {
      return false;
    }
  }

  public close(): void {
    this.transport.close();
  }

  private async postQuery(query: string, accept: string, check = true): Promise<TransportResponse> {
    const response = await this.send('query', query, accept);
    if (check) {
      this.assertOk(response, 'query');
    }
    return response;
  }

  /** Sends a request to the store, timed when metrics are on (an answer other than 2xx counts as an error). */
  private async send(operation: 'query' | 'update', text: string, accept: string): Promise<TransportResponse> {
    const exchange = (): Promise<TransportResponse> => this.exchange(operation, text, accept);
    if (!this.metrics.enabled) {
      return this.sendWithRetry(exchange, operation === 'query');
    }
    const start = performance.now();
    let ok = false;
    try {
      const response = await this.sendWithRetry(exchange, operation === 'query');
      ok = response.status >= 200 && response.status < 300;
      return response;
    } finally {
      this.metrics.storeRequest(operation, ok, (performance.now() - start) / 1000);
    }
  }

  /**
   * Sends, retrying briefly (SEND_ATTEMPTS in all) what the store did not take: a refused connection,
   * or for queries also a reset one (a kept-alive socket the store closed, e.g. across its restart);
   * a reset update may have been applied, so it is not sent again. A deadlock victim (rolled back)
   * is sent again too. A store still unreachable, or too slow, is a StoreUnavailableHttpError (503
   * for the client) rather than an unexpected error (500).
   */
  private async sendWithRetry(exchange: () => Promise<TransportResponse>, idempotent: boolean): Promise<TransportResponse> {
    for (let attempt = 1; ; attempt += 1) {
      let response: TransportResponse;
      try {
        response = await exchange();
      } catch (error: unknown) {
        const code = errnoOf(error) ?? '';
        if (!UNREACHABLE.has(code)) {
          throw error;
        }
        const retry = code === 'ECONNREFUSED' || (idempotent && (code === 'ECONNRESET' || code === 'EPIPE'));
        if (!retry || attempt >= SEND_ATTEMPTS) {
          throw new StoreUnavailableHttpError(code === 'ETIMEDOUT' ?
            `The triple store did not answer in time (timed out after ${this.timeoutMs} ms).` :
            `The triple store is not reachable (${code}).`, { cause: error });
        }
        await new Promise((resolve): unknown => setTimeout(resolve, RETRY_DELAY_MS * attempt));
        continue;
      }
      // Virtuoso rolls back a transaction it chose as a deadlock victim (SQLSTATE 40001): safe to send again.
      if (response.status === 500 && response.body.startsWith('Virtuoso 40001') && attempt < SEND_ATTEMPTS) {
        await new Promise((resolve): unknown => setTimeout(resolve, RETRY_DELAY_MS * attempt));
        continue;
      }
      return response;
    }
  }

  /**
   * One request to the store: a message to its thread when it is an embedded store of this process
   * (the same answers as its HTTP face, without HTTP on either side), else form-encoded over HTTP.
   */
  private async exchange(operation: 'query' | 'update', text: string, accept: string): Promise<TransportResponse> {
    const dataset = this.inProcess[operation];
    const store = dataset === undefined ? undefined : InProcessStores.find(this.inProcess.origin);
    if (store && dataset !== undefined) {
      const answer = await store.operate({ dataset, kind: operation, text, accept }, this.timeoutMs);
      return { status: answer.status, headers: answer.contentType ? { 'content-type': answer.contentType } : {}, body: answer.body };
    }
    return this.transport.send({
      method: 'POST',
      url: operation === 'query' ? this.queryUrl : this.updateUrl,
      headers: this.headers(accept, 'application/x-www-form-urlencoded'),
      body: `${operation}=${encodeURIComponent(text)}`,
      timeoutMs: this.timeoutMs,
    });
  }

  private headers(accept: string, contentType: string): Record<string, string> {
    const headers: Record<string, string> = { accept, 'content-type': contentType };
    if (this.authorization) {
      headers.authorization = this.authorization;
    }
    return headers;
  }

  private assertOk(response: TransportResponse, what: string): void {
    if (response.status === 503) {
      // The store says it cannot serve now (e.g. recovering after a restart): so does Fedpod.
      throw new StoreUnavailableHttpError(`The triple store is not available (503): ${response.body.slice(0, 200)}`);
    }
    if (REFUSED_CONTENT.has(response.status) || (response.status === 500 && VIRTUOSO_CONTENT_ERROR.test(response.body))) {
      // The store refused what the client sent (a literal it cannot cast, an update over its size limits):
      // the client's input, not a server fault. Nothing was stored.
      throw new FedpodHttpError(400, 'bad_request', `The triple store refused the ${what}: ${response.body.trim().split('\n')[0].slice(0, 300)}`);
    }
    if (response.status < 200 || response.status >= 300) {
      // The store failed, or refused Fedpod's own request: a fault of the server (a 500 whose message
      // is for the log), not an HTTP error to pass on.
      throw new Error(`The triple store refused the ${what} with ${response.status}: ${response.body.slice(0, 500)}`);
    }
  }

  private rdfFormat(response: TransportResponse): string {
    const type = (response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type === 'text/turtle' || type === 'application/x-turtle') {
      return 'text/turtle';
    }
    if (type === 'application/n-quads') {
      return 'application/n-quads';
    }
    return 'application/n-triples';
  }

  private toTerm(value: JsonBindingValue): Term {
    switch (value.type) {
      case 'uri': return namedNode(value.value);
      case 'bnode': return blankNode(value.value);
      default: {
        const language = value['xml:lang'];
        if (language) {
          return literal(value.value, language);
        }
        return value.datatype ? literal(value.value, namedNode(value.datatype)) : literal(value.value);
      }
    }
  }
}
