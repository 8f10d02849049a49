import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AllStaticReader, PermissionReader } from '@solid/community-server';
import type { HttpRequest, HttpResponse, PermissionReaderInput, PermissionMap } from '@solid/community-server';
import { Parser as N3Parser } from 'n3';
import { SparqlEndpointHandler } from '../../../src/handlers/SparqlEndpointHandler';
import type { OperationInput } from '../../../src/handlers/http/Operation';
import { operationInput } from './support/operations';
import { checkQuery } from '../../../src/handlers/sparql/SparqlQueryGuard';
import {
  parseJsonResults,
  writeCsvResults,
  writeJsonResults,
  writeTsvResults,
  writeXmlResults,
} from '../../../src/handlers/sparql/SparqlResults';
import { convertGraph } from '../../../src/handlers/sparql/GraphResults';
import type { SparqlClient } from '../../../src/storage/SparqlClient';
import type { TransportResponse } from '../../../src/storage/HttpTransport';

const BASE = 'http://pod.example/';

/** Virtuoso-style JSON: old `typed-literal`, extra `link`. */
const SELECT_JSON = JSON.stringify({
  head: { link: [], vars: [ 's', 'o' ]},
  results: { distinct: false, ordered: true, bindings: [
    { s: { type: 'uri', value: 'http://pod.example/notes/1' }, o: { type: 'literal', value: 'hello, "world"\n', 'xml:lang': 'en' }},
    { s: { type: 'bnode', value: 'b0' }, o: { type: 'typed-literal', datatype: 'http://www.w3.org/2001/XMLSchema#integer', value: '42' }},
    { s: { type: 'uri', value: 'http://pod.example/notes/2' }},
  ]},
});

const TURTLE_GRAPH = '@prefix s: <http://schema.org/> .\n<http://pod.example/notes/1> s:text "hi" .\n';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

class DenyAllReader extends PermissionReader {
  public async handle(input: PermissionReaderInput): Promise<PermissionMap> {
    void input;
    return new Map() as unknown as PermissionMap;
  }
}

describe('SparqlEndpointHandler', (): void => {
  let server: Server;
  let url: string;
  let rawQuery: jest.Mock<Promise<TransportResponse>, [string, string]>;
  let handler: SparqlEndpointHandler;

  async function listen(endpoint: SparqlEndpointHandler): Promise<void> {
    handler = endpoint;
    server = createServer((request, response): void => {
      void (async(): Promise<void> => {
        let input: OperationInput;
        try {
          input = operationInput(request as HttpRequest, response);
          await handler.canHandle(input);
        } catch {
          response.writeHead(404).end('not mine');
          return;
        }
        await handler.handle(input);
      })();
    });
    await new Promise<void>((resolve): void => {
      server.listen(0, '127.0.0.1', resolve);
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sparql`;
  }

  function makeHandler(reader: PermissionReader = new AllStaticReader(true), expose = false, maxBody = 1000,
    maxConcurrent = 8): SparqlEndpointHandler {
    const client = { rawQuery } as unknown as SparqlClient;
    return new SparqlEndpointHandler(BASE, client, reader, maxBody, maxConcurrent, expose);
  }

  async function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}):
  Promise<Reply> {
    const response = await fetch(`${url}${path}`, init);
    const headers: IncomingHttpHeaders = {};
    response.headers.forEach((value, key): void => {
      headers[key] = value;
    });
    return { status: response.status, headers, body: await response.text() };
  }

  const get = async(query: string, accept?: string, extra = ''): Promise<Reply> =>
    call(`?query=${encodeURIComponent(query)}${extra}`, { headers: accept ? { accept } : {}});

  function storeAnswers(body: string, contentType = 'application/sparql-results+json', status = 200): void {
    rawQuery.mockResolvedValue({ status, headers: { 'content-type': contentType }, body });
  }

  beforeEach(async(): Promise<void> => {
    rawQuery = jest.fn();
    storeAnswers(SELECT_JSON);
    await listen(makeHandler());
  });

  afterEach(async(): Promise<void> => {
    await new Promise<void>((resolve): void => {
      server.close((): void => resolve());
    });
  });

  describe('routing', (): void => {
    it('serves {base}sparql only, and leaves OPTIONS to CSS', async(): Promise<void> => {
      expect((await call('x')).status).toBe(404);
      expect((await call('', { method: 'OPTIONS' })).status).toBe(404);
    });

    it('answers 405 with Allow to other methods', async(): Promise<void> => {
      const reply = await call('', { method: 'PUT', body: 'x' });
      expect(reply.status).toBe(405);
      expect(reply.headers.allow).toBe('GET, HEAD, POST');
      expect(rawQuery).not.toHaveBeenCalled();
    });

    it('follows a base URL with a path', async(): Promise<void> => {
      const endpoint = new SparqlEndpointHandler('http://pod.example/base', { rawQuery } as unknown as SparqlClient,
        new AllStaticReader(true));
      const at = (url: string): OperationInput => operationInput({ url, method: 'GET' } as HttpRequest, {} as HttpResponse);
      await expect(endpoint.canHandle(at('/base/sparql?query=x'))).resolves.toBeUndefined();
      await expect(endpoint.canHandle(at('/sparql'))).rejects.toThrow();
    });
  });

  describe('queries', (): void => {
    it('answers GET ?query= in SPARQL JSON by default, normalising the store\'s JSON', async(): Promise<void> => {
      const reply = await get('SELECT * WHERE { ?s ?p ?o }');
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe('application/sparql-results+json; charset=utf-8');
      expect(reply.headers['cache-control']).toBe('no-store');
      const json = JSON.parse(reply.body) as { head: { vars: string[] }; results: { bindings: unknown[] }};
      expect(json.head.vars).toEqual([ 's', 'o' ]);
      expect(json.results.bindings[1]).toEqual({
        s: { type: 'bnode', value: 'b0' },
        o: { type: 'literal', datatype: 'http://www.w3.org/2001/XMLSchema#integer', value: '42' },
      });
      expect(rawQuery).toHaveBeenCalledTimes(1);
      expect(rawQuery.mock.calls[0][1]).toBe('application/sparql-results+json');
    });

    it('forwards a query regenerated from the parse, with relative IRIs resolved against the base', async():
    Promise<void> => {
      await get('SELECT ?o WHERE { <notes/1> ?p ?o }');
      const sent = rawQuery.mock.calls[0][0];
      expect(sent).toContain('<http://pod.example/notes/1>');
      expect(checkQuery(sent, BASE).form).toBe('SELECT');
    });

    it('accepts a form POST and an application/sparql-query POST', async(): Promise<void> => {
      const form = await call('', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ query: 'SELECT * WHERE { ?s ?p ?o }' }).toString(),
      });
      expect(form.status).toBe(200);
      const direct = await call('', {
        method: 'POST',
        headers: { 'content-type': 'application/sparql-query; charset=utf-8' },
        body: 'ASK { ?s ?p ?o }',
      });
      expect(direct.status).toBe(200);
      expect(rawQuery.mock.calls[1][0]).toMatch(/^ASK/u);
    });

    it.each([
      [ 'application/sparql-results+xml', 'application/sparql-results+xml', '<uri>http://pod.example/notes/1</uri>' ],
      [ 'text/csv', 'text/csv', 's,o\r\nhttp://pod.example/notes/1,"hello, ""world""\n"\r\n_:b0,42\r\n' ],
      [ 'text/tab-separated-values', 'text/tab-separated-values',
        '?s\t?o\n<http://pod.example/notes/1>\t"hello, \\"world\\"\\n"@en\n' ],
      [ 'application/json', 'application/sparql-results+json', '"vars":["s","o"]' ],
      [ 'text/html, application/xml;q=0.9, */*;q=0.8', 'application/sparql-results+xml', '<sparql' ],
    ])('negotiates %s for SELECT', async(accept, type, fragment): Promise<void> => {
      const reply = await get('SELECT * WHERE { ?s ?p ?o }', accept);
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe(`${type}; charset=utf-8`);
      expect(reply.body).toContain(fragment);
    });

    it('answers 406 when no result format is acceptable', async(): Promise<void> => {
      const reply = await get('SELECT * WHERE { ?s ?p ?o }', 'image/png');
      expect(reply.status).toBe(406);
      expect(JSON.parse(reply.body)).toMatchObject({ error: 'not_acceptable' });
      expect(rawQuery).not.toHaveBeenCalled();
    });

    it('answers ASK as a boolean, including Virtuoso\'s numeric booleans', async(): Promise<void> => {
      storeAnswers('{ "head": { "link": [] }, "boolean": 1 }');
      const reply = await get('ASK { ?s ?p ?o }');
      expect(JSON.parse(reply.body)).toEqual({ head: {}, boolean: true });
      expect((await get('ASK {}', 'text/csv')).body).toBe('_askResult\r\ntrue\r\n');
    });

    it('passes a CONSTRUCT through when the store answered the negotiated type (Turtle by default)', async():
    Promise<void> => {
      storeAnswers(TURTLE_GRAPH, 'text/turtle; charset=UTF-8');
      const reply = await get('CONSTRUCT WHERE { ?s ?p ?o }');
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe('text/turtle; charset=utf-8');
      expect(reply.body).toBe(TURTLE_GRAPH);
      expect(rawQuery.mock.calls[0][1]).toMatch(/^text\/turtle, /u);
    });

    it('re-serialises a CONSTRUCT the store answered in Turtle when N-Triples was asked for', async():
    Promise<void> => {
      storeAnswers(TURTLE_GRAPH, 'text/turtle');
      const reply = await get('DESCRIBE <http://pod.example/notes/1>', 'application/n-triples');
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe('application/n-triples; charset=utf-8');
      expect(reply.body).toBe('<http://pod.example/notes/1> <http://schema.org/text> "hi" .\n');
      expect(rawQuery.mock.calls[0][1]).toMatch(/^application\/n-triples, /u);
    });

    it('honours default-graph-uri and named-graph-uri', async(): Promise<void> => {
      await get('SELECT * FROM <urn:ignored> WHERE { ?s ?p ?o }', undefined,
        `&default-graph-uri=${encodeURIComponent('http://pod.example/notes/1')}` +
        `&named-graph-uri=${encodeURIComponent('http://pod.example/notes/2')}`);
      const sent = rawQuery.mock.calls[0][0];
      expect(sent).toContain('FROM <http://pod.example/notes/1>');
      expect(sent).toContain('FROM NAMED <http://pod.example/notes/2>');
      expect(sent).not.toContain('urn:ignored');
      expect((await get('ASK {}', undefined, '&default-graph-uri=not%20an%20iri')).status).toBe(400);
    });

    it('answers GET without a query with a service description', async(): Promise<void> => {
      const reply = await call('');
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe('text/turtle; charset=utf-8');
      const quads = new N3Parser().parse(reply.body);
      expect(quads.some((quad): boolean => quad.object.value === 'http://www.w3.org/ns/sparql-service-description#SPARQL11Query'))
        .toBe(true);
      expect(rawQuery).not.toHaveBeenCalled();
    });

    it('answers HEAD without a body', async(): Promise<void> => {
      const reply = await call(`?query=${encodeURIComponent('ASK {}')}`, { method: 'HEAD' });
      expect(reply.status).toBe(200);
      expect(reply.body).toBe('');
    });
  });

  describe('refusals', (): void => {
    it('answers 400 invalid_query to a syntax error, without asking the store', async(): Promise<void> => {
      const reply = await get('SELECT WHERE {');
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body)).toMatchObject({ error: 'invalid_query' });
      expect(rawQuery).not.toHaveBeenCalled();
    });

    it.each([
      'INSERT DATA { <urn:a> <urn:b> <urn:c> }',
      'DELETE WHERE { ?s ?p ?o }',
      'LOAD <http://example.org/data.ttl>',
      'CLEAR ALL',
      'DROP GRAPH <urn:g>',
      'CREATE GRAPH <urn:g>',
      'COPY <urn:a> TO <urn:b>',
      'WITH <urn:g> DELETE { ?s ?p ?o } INSERT { ?s ?p "x" } WHERE { ?s ?p ?o }',
    ])('answers 403 update_forbidden to %s in query=', async(update): Promise<void> => {
      const reply = await get(update);
      expect(reply.status).toBe(403);
      expect(JSON.parse(reply.body)).toMatchObject({ error: 'update_forbidden' });
      expect(rawQuery).not.toHaveBeenCalled();
    });

    it('answers 403 to update= (GET, form POST, or in the URL of a form POST) and sparql-update bodies', async():
    Promise<void> => {
      const update = encodeURIComponent('INSERT DATA { <urn:a> <urn:b> <urn:c> }');
      const replies = [
        await call(`?update=${update}`),
        await call('', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `update=${update}` }),
        await call('', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `query=${encodeURIComponent('ASK {}')}&update=${update}` }),
        await call(`?update=${update}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `query=${encodeURIComponent('ASK {}')}` }),
        await call('', { method: 'POST', headers: { 'content-type': 'application/sparql-update' },
          body: 'INSERT DATA { <urn:a> <urn:b> <urn:c> }' }),
      ];
      for (const reply of replies) {
        expect(reply.status).toBe(403);
        expect(JSON.parse(reply.body)).toEqual(expect.objectContaining({ error: 'update_forbidden' }));
      }
      expect(rawQuery).not.toHaveBeenCalled();
    });

    it.each([
      [ 'SELECT * WHERE { SERVICE <http://169.254.169.254/> { ?s ?p ?o } }', 'service_forbidden' ],
      [ 'SELECT * WHERE { SERVICE SILENT ?x { ?s ?p ?o } }', 'service_forbidden' ],
      [ 'SELECT (<sql:SPARQL_INSERT_QUAD_DICT_CONTENT>(1) AS ?x) WHERE {}', 'function_forbidden' ],
      [ 'PREFIX b: <bif:> SELECT (b:registry_get("x") AS ?x) WHERE {}', 'function_forbidden' ],
      [ 'SELECT (<java:com.example.Fn>(1) AS ?x) WHERE {}', 'function_forbidden' ],
      [ 'SELECT (<http://example.org/fn>(1) AS ?x) WHERE {}', 'function_forbidden' ],
      [ 'PREFIX b: <bif:> SELECT ?s WHERE { ?s ?p ?o . ?o b:contains "x" }', 'forbidden_iri' ],
    ])('answers 403 to %s', async(query, code): Promise<void> => {
      const reply = await get(query);
      expect(reply.status).toBe(403);
      expect(JSON.parse(reply.body)).toMatchObject({ error: code });
      expect(rawQuery).not.toHaveBeenCalled();
    });

    it('lets standard functions and XSD casts through', async(): Promise<void> => {
      const reply = await get('PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ' +
        'SELECT (xsd:integer("3") AS ?x) (STRLEN("abc") AS ?n) (NOW() AS ?t) WHERE {}');
      expect(reply.status).toBe(200);
    });

    it('answers 400 to no query in a POST and to two queries', async(): Promise<void> => {
      const empty = await call('', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
      expect(empty.status).toBe(400);
      expect((await call(`?query=${encodeURIComponent('ASK {}')}&query=${encodeURIComponent('ASK {}')}`)).status).toBe(400);
    });

    it('answers 415 to other POST bodies and 413 above the body limit', async(): Promise<void> => {
      expect((await call('', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'ASK {}' })).status).toBe(415);
      const big = await call('', { method: 'POST', headers: { 'content-type': 'application/sparql-query' },
        body: `ASK { ?s ?p "${'x'.repeat(2000)}" }` });
      expect(big.status).toBe(413);
      expect(rawQuery).not.toHaveBeenCalled();
    });
  });

  describe('store failures', (): void => {
    it('answers 503 store_unavailable when the store cannot be reached', async(): Promise<void> => {
      rawQuery.mockRejectedValue(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }));
      const reply = await get('ASK {}');
      expect(reply.status).toBe(503);
      expect(JSON.parse(reply.body)).toMatchObject({ error: 'store_unavailable' });
      expect(reply.headers['retry-after']).toBe('5');
    });

    it('answers 503 store_timeout when the store is too slow', async(): Promise<void> => {
      rawQuery.mockRejectedValue(new Error('Request to http://store timed out'));
      expect(JSON.parse((await get('ASK {}')).body)).toMatchObject({ error: 'store_timeout' });
      storeAnswers('Virtuoso S1T00 Error SR171: Transaction timed out', 'text/plain', 500);
      expect(JSON.parse((await get('ASK {}')).body)).toMatchObject({ error: 'store_timeout' });
    });

    it('answers 502 when the store fails or answers nonsense', async(): Promise<void> => {
      storeAnswers('boom', 'text/plain', 500);
      const failed = await get('ASK {}');
      expect(failed.status).toBe(502);
      expect(JSON.parse(failed.body)).toMatchObject({ error: 'store_error' });
      storeAnswers('<html>not json</html>', 'text/html', 200);
      expect((await get('SELECT * WHERE { ?s ?p ?o }')).status).toBe(502);
      storeAnswers('<html/>', 'text/html', 200);
      expect((await get('CONSTRUCT WHERE { ?s ?p ?o }', 'application/n-triples')).status).toBe(502);
    });

    it('answers 400 query_rejected when the store refuses a query it cannot compile', async(): Promise<void> => {
      storeAnswers('Virtuoso 37000 Error SP031: SPARQL compiler: something\n\nSPARQL query: ...', 'text/plain', 500);
      const reply = await get('ASK {}');
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body)).toEqual({
        error: 'query_rejected',
        message: 'The triple store refused the query: Virtuoso 37000 Error SP031: SPARQL compiler: something',
      });
      storeAnswers('Parse error', 'text/plain', 400);
      expect((await get('ASK {}')).status).toBe(400);
    });

    it('answers 503 too_many_queries above the concurrency limit', async(): Promise<void> => {
      server.close();
      await listen(makeHandler(new AllStaticReader(true), false, 1000, 1));
      let release!: () => void;
      rawQuery.mockImplementationOnce(async(): Promise<TransportResponse> => {
        await new Promise<void>((resolve): void => {
          release = resolve;
        });
        return { status: 200, headers: { 'content-type': 'application/sparql-results+json' }, body: '{"boolean":true}' };
      });
      const first = get('ASK {}');
      while (rawQuery.mock.calls.length === 0) {
        await new Promise((resolve): unknown => setTimeout(resolve, 5));
      }
      const second = await get('ASK {}');
      expect(second.status).toBe(503);
      expect(JSON.parse(second.body)).toMatchObject({ error: 'too_many_queries' });
      release();
      expect((await first).status).toBe(200);
    });
  });

  describe('with access control', (): void => {
    it('refuses every query with 403 sparql_disabled when authorization is not allow-all', async(): Promise<void> => {
      for (const reader of [ new DenyAllReader(), new AllStaticReader(false) ]) {
        server.close();
        await listen(makeHandler(reader));
        const reply = await get('SELECT * WHERE { ?s ?p ?o }');
        expect(reply.status).toBe(403);
        expect(JSON.parse(reply.body)).toMatchObject({ error: 'sparql_disabled' });
      }
      expect(rawQuery).not.toHaveBeenCalled();
    });

    it('serves anyway when the operator set exposeWithAccessControl', async(): Promise<void> => {
      server.close();
      await listen(makeHandler(new DenyAllReader(), true));
      expect((await get('SELECT * WHERE { ?s ?p ?o }')).status).toBe(200);
    });
  });
});

describe('SPARQL results writers', (): void => {
  const results = parseJsonResults(SELECT_JSON);

  it('reads the store\'s JSON, keeping variables and normalising terms', (): void => {
    expect(results).toEqual({
      kind: 'bindings',
      vars: [ 's', 'o' ],
      rows: [
        { s: { type: 'uri', value: 'http://pod.example/notes/1' }, o: { type: 'literal', value: 'hello, "world"\n', 'xml:lang': 'en' }},
        { s: { type: 'bnode', value: 'b0' }, o: { type: 'literal', value: '42', datatype: 'http://www.w3.org/2001/XMLSchema#integer' }},
        { s: { type: 'uri', value: 'http://pod.example/notes/2' }},
      ],
    });
    expect(parseJsonResults('{"boolean":"0"}')).toEqual({ kind: 'boolean', value: false });
    expect(() => parseJsonResults('nope')).toThrow('valid JSON');
    expect(() => parseJsonResults('{"head":{}}')).toThrow('without results');
  });

  it('writes JSON', (): void => {
    expect(JSON.parse(writeJsonResults(results))).toEqual({ head: { vars: [ 's', 'o' ]}, results: { bindings: results.kind === 'bindings' ? results.rows : [] }});
  });

  it('writes XML', (): void => {
    const xml = writeXmlResults(results);
    expect(xml).toContain('<variable name="s"/>');
    expect(xml).toContain('<binding name="o"><literal xml:lang="en">hello, &quot;world&quot;\n</literal></binding>');
    expect(xml).toContain('<binding name="s"><bnode>b0</bnode></binding>');
    expect(xml).toContain('<literal datatype="http://www.w3.org/2001/XMLSchema#integer">42</literal>');
    expect(writeXmlResults({ kind: 'boolean', value: true })).toContain('<boolean>true</boolean>');
  });

  it('writes CSV and TSV', (): void => {
    expect(writeCsvResults(results)).toBe(
      's,o\r\nhttp://pod.example/notes/1,"hello, ""world""\n"\r\n_:b0,42\r\nhttp://pod.example/notes/2,\r\n',
    );
    expect(writeTsvResults(results)).toBe('?s\t?o\n<http://pod.example/notes/1>\t"hello, \\"world\\"\\n"@en\n' +
      '_:b0\t"42"^^<http://www.w3.org/2001/XMLSchema#integer>\n<http://pod.example/notes/2>\t\n');
    expect(writeTsvResults({ kind: 'boolean', value: false })).toBe('?_askResult\nfalse\n');
  });
});

describe('graph results', (): void => {
  it('converts N-Triples labelled text/plain, and refuses what it cannot read', async(): Promise<void> => {
    const triples = '<urn:a> <urn:b> "c" .\n';
    expect(await convertGraph(triples, 'text/plain', 'text/turtle')).toContain('<urn:a> <urn:b> "c"');
    await expect(convertGraph('<rdf:RDF/>', 'application/rdf+xml', 'text/turtle')).rejects.toThrow('application/rdf+xml');
    await expect(convertGraph('<urn:a> <urn:b> .', 'text/turtle', 'text/turtle')).rejects.toThrow('could not be read');
  });
});
