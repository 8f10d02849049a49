import type { ServerResponse } from 'node:http';
import type { HttpHandlerInput, PermissionReader } from '@solid/community-server';
import type { OperationInput } from './http/Operation';
import { AccessMode, AllStaticReader, IdentifierSetMultiMap } from '@solid/community-server';
import { NOT_HANDLED } from './http/NotHandled';
import type { StoreQueries } from '../storage/StoreQueries';
import type { TransportResponse } from '../storage/HttpTransport';
import { badRequest, FedpodHttpError, forbidden, methodNotAllowed, unsupportedMediaType } from '../util/HttpErrors';
import { mediaTypeOf, negotiate, readBody } from './http/HttpUtil';
import { JsonHttpHandler } from './http/JsonHttpHandler';
import { convertGraph, N_QUADS, N_TRIPLES, TURTLE } from './sparql/GraphResults';
import type { QueryForm } from './sparql/SparqlQueryGuard';
import { checkQuery } from './sparql/SparqlQueryGuard';
import { CSV, parseJsonResults, SPARQL_JSON, SPARQL_XML, TSV, writeResults } from './sparql/SparqlResults';
import { messageOf } from '../util/Errors';

const FORM = 'application/x-www-form-urlencoded';
const SPARQL_QUERY = 'application/sparql-query';
const SPARQL_UPDATE = 'application/sparql-update';

/** SELECT / ASK: offered media types (JSON first: the default) and what each one produces. */
const RESULT_OFFERS: Record<string, string> = {
  [SPARQL_JSON]: SPARQL_JSON,
  [SPARQL_XML]: SPARQL_XML,
  [CSV]: CSV,
  [TSV]: TSV,
  'application/json': SPARQL_JSON,
  'application/xml': SPARQL_XML,
  'text/xml': SPARQL_XML,
};

/** CONSTRUCT / DESCRIBE: offered media types (Turtle first: the default) and what each one produces. */
const GRAPH_OFFERS: Record<string, string> = {
  [TURTLE]: TURTLE,
  [N_TRIPLES]: N_TRIPLES,
  [N_QUADS]: N_QUADS,
  'application/x-turtle': TURTLE,
};

const ALLOW = 'GET, HEAD, POST';

/**
 * A read-only SPARQL 1.1 Protocol endpoint at `{base}sparql` over the whole triple store.
 *
 * - Queries: `GET ?query=`, `POST` form (`query=`), `POST application/sparql-query`; the protocol's
 *   `default-graph-uri` / `named-graph-uri` parameters are honoured. `GET` without a query answers
 *   a SPARQL service description.
 * - Every query is parsed first (sparqljs): invalid → 400 `invalid_query`; any update, an `update=`
 *   parameter or an application/sparql-update body → 403 `update_forbidden`, and nothing reaches the store.
 *   SERVICE, non-standard functions and store-internal IRIs (Virtuoso `bif:` / `sql:`) → 403.
 * - SELECT / ASK answer application/sparql-results+json (default), +xml, text/csv or
 *   text/tab-separated-values; CONSTRUCT / DESCRIBE answer text/turtle (default), application/n-triples
 *   or application/n-quads. Nothing acceptable → 406.
 * - The store's default graph is the union of all graphs on every supported store, so a query sees
 *   every resource, including the `meta:` metadata graphs.
 * - Store down or too slow → 503; the store failing or answering nonsense → 502. Too many queries at
 *   once → 503 with Retry-After.
 *
 * SECURITY: the endpoint bypasses CSS's authorization and reads the whole store. That is fine with
 * allow-all authorization (everything is public anyway) but would leak private data with WebACL.
 * So, unless `exposeWithAccessControl` is set, it only serves when CSS's PermissionReader is
 * allow-all (an `AllStaticReader` granting anonymous read); otherwise every request gets
 * 403 `sparql_disabled` and start-up logs an error. Do not combine the sparql-endpoint part with
 * the webacl part unless all data is meant to be public.
 */
export class SparqlEndpointHandler extends JsonHttpHandler {
  private readonly baseUrl: string;
  private readonly path: string;
  private readonly endpointUrl: string;
  private exposed?: Promise<boolean>;
  private running = 0;

  /**
   * @param baseUrl - Public base URL; the endpoint is `{baseUrl}sparql`.
   * @param client - Client of the store's query URL (queries are forwarded with `rawQuery`).
   * @param permissionReader - CSS's permission reader, to check that authorization is allow-all.
   * @param maxBodyBytes - Largest POST body.
   * @param maxConcurrentQueries - Queries run at once; more get 503.
   * @param exposeWithAccessControl - Serve even when authorization is not allow-all (exposes all data!).
   */
  public constructor(
    baseUrl: string,
    private readonly client: StoreQueries,
    private readonly permissionReader: PermissionReader,
    private readonly maxBodyBytes = 1_048_576,
    private readonly maxConcurrentQueries = 8,
    private readonly exposeWithAccessControl = false,
  ) {
    super();
    const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    this.baseUrl = base.href;
    this.path = `${base.pathname}sparql`;
    this.endpointUrl = `${base.origin}${this.path}`;
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    // OPTIONS (CORS preflight) is left to CSS.
    if (operation.target.path !== this.path || request.method === 'OPTIONS') {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const method = request.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
      request.resume();
      throw methodNotAllowed(`${method} is not supported by the SPARQL endpoint.`, ALLOW);
    }
    if (!await this.isExposed()) {
      request.resume();
      throw forbidden('The SPARQL endpoint is disabled because access control is on: it would expose private data.',
        'sparql_disabled');
    }
    const params = await this.readParameters(request, method, operation.target.query);
    if (params.has('update')) {
      throw forbidden('This endpoint is read-only: SPARQL updates are not accepted.', 'update_forbidden');
    }
    const queries = params.getAll('query');
    if (queries.length === 0) {
      if (method === 'POST') {
        throw badRequest('The request has no query.', 'missing_query');
      }
      this.send(response, method, 200, TURTLE, this.serviceDescription());
      return;
    }
    if (queries.length > 1) {
      throw badRequest('The request has more than one query.', 'invalid_query');
    }
    const checked = checkQuery(queries[0], this.baseUrl, {
      defaultGraphs: params.getAll('default-graph-uri'),
      namedGraphs: params.getAll('named-graph-uri'),
    });
    const graphForm = checked.form === 'CONSTRUCT' || checked.form === 'DESCRIBE';
    const offers = graphForm ? GRAPH_OFFERS : RESULT_OFFERS;
    const chosen = negotiate(request.headers.accept, Object.keys(offers));
    if (!chosen) {
      throw new FedpodHttpError(406, 'not_acceptable',
        `${checked.form} results are available as ${Object.keys(offers).join(', ')}.`);
    }
    const mediaType = offers[chosen.type];
    const answer = await this.runQuery(checked.text, checked.form,
      graphForm ? `${mediaType}, ${TURTLE};q=0.9, ${N_TRIPLES};q=0.8` : SPARQL_JSON);
    let body: string;
    try {
      if (graphForm) {
        const storeType = mediaTypeOf(answer.headers['content-type']);
        body = storeType === mediaType ? answer.body : await convertGraph(answer.body, storeType, mediaType);
      } else {
        body = writeResults(parseJsonResults(answer.body), mediaType);
      }
    } catch (error: unknown) {
      this.logger.warn(`The store's answer to a ${checked.form} could not be read: ${messageOf(error)}`);
      throw new FedpodHttpError(502, 'store_error', 'The triple store answered something unreadable.');
    }
    this.send(response, method, 200, mediaType, body);
  }

  /** Query parameters of a GET, or of a POST (form fields, or the body as `query`). */
  private async readParameters(request: HttpHandlerInput['request'], method: string, query: URLSearchParams):
  Promise<URLSearchParams> {
    if (method !== 'POST') {
      return query;
    }
    const type = mediaTypeOf(request.headers['content-type']);
    if (type === SPARQL_UPDATE) {
      request.resume();
      throw forbidden('This endpoint is read-only: SPARQL updates are not accepted.', 'update_forbidden');
    }
    if (type !== FORM && type !== SPARQL_QUERY) {
      request.resume();
      throw unsupportedMediaType(`POST a query as ${FORM} or ${SPARQL_QUERY}.`);
    }
    const body = (await readBody(request, this.maxBodyBytes)).toString('utf8');
    if (type === FORM) {
      const form = new URLSearchParams(body);
      // An update= in the URL of a form POST is refused as well.
      if (query.has('update')) {
        form.append('update', '');
      }
      return form;
    }
    // application/sparql-query: the body is the query, the dataset parameters are in the URL.
    const params = new URLSearchParams(query);
    params.delete('query');
    params.append('query', body);
    return params;
  }

  private async runQuery(text: string, form: QueryForm, accept: string): Promise<TransportResponse> {
    if (this.running >= this.maxConcurrentQueries) {
      throw new FedpodHttpError(503, 'too_many_queries', 'Too many queries are running; try again shortly.',
        { 'retry-after': '1' });
    }
    this.running += 1;
    let answer: TransportResponse;
    try {
      answer = await this.client.rawQuery(text, accept);
    } catch (error: unknown) {
      const message = messageOf(error);
      this.logger.warn(`The store did not answer a ${form}: ${message}`);
      if (/timed out/iu.test(message)) {
        throw new FedpodHttpError(503, 'store_timeout', 'The query took too long.', { 'retry-after': '5' });
      }
      throw new FedpodHttpError(503, 'store_unavailable', 'The triple store is not reachable.', { 'retry-after': '5' });
    } finally {
      this.running -= 1;
    }
    if (answer.status >= 200 && answer.status < 300) {
      return answer;
    }
    // The store's first line says what went wrong (e.g. a feature it lacks); the rest may be long.
    const said = answer.body.trim().split('\n')[0].slice(0, 300);
    // Virtuoso answers 500 to queries it cannot compile (SQLSTATE class 37) and to its own timeouts (S1T00).
    if (answer.status === 400 || /^Virtuoso 37\w{3} /u.test(said)) {
      throw badRequest(`The triple store refused the query: ${said}`, 'query_rejected');
    }
    this.logger.warn(`The store answered a ${form} with ${answer.status}: ${answer.body.slice(0, 500)}`);
    if (/^Virtuoso S1T00 /u.test(said)) {
      throw new FedpodHttpError(503, 'store_timeout', 'The query took too long.', { 'retry-after': '5' });
    }
    throw new FedpodHttpError(502, 'store_error', `The triple store could not run the query (${answer.status}): ${said}`);
  }

  /** Whether the data may be exposed: authorization is allow-all (or the operator said so). */
  private async isExposed(): Promise<boolean> {
    this.exposed ??= (async(): Promise<boolean> => {
      if (this.exposeWithAccessControl) {
        return true;
      }
      let allowAll = false;
      if (this.permissionReader instanceof AllStaticReader) {
        const target = { path: this.baseUrl };
        const permissions = await this.permissionReader.handle({
          credentials: {},
          requestedModes: new IdentifierSetMultiMap<AccessMode>([[ target, AccessMode.read ]]),
        });
        allowAll = permissions.get(target)?.read === true;
      }
      if (!allowAll) {
        this.logger.error(`${this.endpointUrl} is disabled: authorization is not allow-all, and a public SPARQL ` +
          'endpoint would expose every resource. Remove the sparql-endpoint part, or set exposeWithAccessControl.');
      }
      return allowAll;
    })();
    return this.exposed;
  }

  private serviceDescription(): string {
    const formats = [ 'SPARQL_Results_JSON', 'SPARQL_Results_XML', 'SPARQL_Results_CSV', 'SPARQL_Results_TSV',
      'Turtle', 'N-Triples', 'N-Quads' ].map((name): string => `<http://www.w3.org/ns/formats/${name}>`);
    return [
      '@prefix sd: <http://www.w3.org/ns/sparql-service-description#> .',
      '',
      `<${this.endpointUrl}> a sd:Service ;`,
      `  sd:endpoint <${this.endpointUrl}> ;`,
      '  sd:supportedLanguage sd:SPARQL11Query ;',
      `  sd:resultFormat ${formats.join(', ')} ;`,
      '  sd:feature sd:UnionDefaultGraph .',
      '',
    ].join('\n');
  }

  private send(response: ServerResponse, method: string, status: number, mediaType: string, body: string): void {
    response.writeHead(status, {
      'content-type': `${mediaType}; charset=utf-8`,
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
    });
    response.end(method === 'HEAD' ? undefined : body);
  }
}
