import http from 'node:http';
import https from 'node:https';
import type { Quad, Term } from '@rdfjs/types';
import { DataFactory, StreamParser } from 'n3';
import { graphValuesOf } from './QuadUpdates';
import { SparqlClient } from './SparqlClient';
import { sparqlIri } from './SparqlTerms';

const { quad, namedNode } = DataFactory;

/** How a dump read the store. */
export type DumpMethod = 'graph-store' | 'select';

export interface StoreDumpOptions {
  /** The store's SPARQL query URL. */
  readonly queryUrl: string;
  /** Its Graph Store Protocol URL (Fuseki-style `{base}{dataset}/data`), or '' when it has none. */
  readonly graphStoreUrl: string;
  readonly user: string;
  readonly password: string;
  /** Most quads one SELECT may answer. */
  readonly pageQuads: number;
  /** Per-request timeout in ms. */
  readonly timeoutMs: number;
}

/** Graphs (with their sizes) in groups of at most `max` quads; a larger graph alone. */
export function graphBatches(graphs: readonly (readonly [string, number])[], max: number): [string, number][][] {
  const batches: [string, number][][] = [];
  let current: [string, number][] = [];
  let size = 0;
  for (const [ graph, count ] of graphs) {
    if (current.length > 0 && size + count > max) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push([ graph, count ]);
    size += count;
  }
  if (current.length > 0) {
    batches.push(current);
  }
  return batches;
}

/** Statuses by which a store says it has no Graph Store Protocol for the whole dataset. */
const NO_DATASET_GET = new Set([ 400, 404, 405, 406, 415, 501 ]);
const GRAPH_LIST_PAGE = 10_000;

/**
 * Every quad of every graph of a SPARQL store, read as a stream. Where the store serves the whole
 * dataset over the Graph Store Protocol (Fuseki, the embedded store) that is one GET of N-Quads,
 * streamed; otherwise (a plain SPARQL endpoint such as Virtuoso) the graphs are listed with their
 * sizes and read a few thousand quads per SELECT, each answer checked against the size listed (a
 * store that cuts results short, e.g. Virtuoso's ResultSetMaxRows, fails the dump instead of
 * shortening it). The SELECT path reads named graphs only (on a union-default-graph store the
 * default graph is every graph), and refuses blank nodes, whose labels only hold within one answer.
 */
export class StoreDump {
  private dumpMethod?: DumpMethod;

  public constructor(private readonly options: StoreDumpOptions) {}

  /** How the last dump read the store (known once it has started). */
  public get method(): DumpMethod | undefined {
    return this.dumpMethod;
  }

  public async *quads(): AsyncGenerator<Quad> {
    if (this.options.graphStoreUrl) {
      const response = await this.get(this.options.graphStoreUrl, 'application/n-quads');
      const type = (response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (response.statusCode === 200 && type === 'application/n-quads') {
        this.dumpMethod = 'graph-store';
        yield* this.parse(response);
        return;
      }
      response.resume();
      if (response.statusCode === 401 || response.statusCode === 403) {
        throw new Error(`The store refused the credentials (${response.statusCode}) at ${this.options.graphStoreUrl}`);
      }
      if (response.statusCode !== 200 && !NO_DATASET_GET.has(response.statusCode ?? 0)) {
        throw new Error(`The store answered ${response.statusCode} to a GET of ${this.options.graphStoreUrl}`);
      }
    }
    this.dumpMethod = 'select';
    yield* this.select();
  }

  private async *parse(response: http.IncomingMessage): AsyncGenerator<Quad> {
    const parser = new StreamParser({ format: 'N-Quads' });
    response.on('error', (error): void => {
      parser.destroy(error);
    });
    response.pipe(parser);
    for await (const entry of parser as AsyncIterable<Quad>) {
      yield entry;
    }
  }

  private async *select(): AsyncGenerator<Quad> {
    const client = new SparqlClient(this.options.queryUrl, this.options.queryUrl, this.options.user, this.options.password,
      this.options.timeoutMs);
    try {
      const graphs = await this.listGraphs(client);
      for (const batch of graphBatches(graphs, this.options.pageQuads)) {
        if (batch.length === 1 && batch[0][1] > this.options.pageQuads) {
          yield* this.pagedGraph(client, batch[0][0], batch[0][1]);
          continue;
        }
        const expected = batch.reduce((sum, [ , count ]): number => sum + count, 0);
        const rows = await client.select(`SELECT ?g ?s ?p ?o WHERE { ${graphValuesOf(batch.map(([ graph ]): string => graph))} ` +
          'GRAPH ?g { ?s ?p ?o } }');
        if (rows.length !== expected) {
          throw new Error(`The store answered ${rows.length} quads for graphs listed with ${expected}: ` +
            'it cuts results short (Virtuoso: raise ResultSetMaxRows) or changed meanwhile (stop the server during the export)');
        }
        for (const row of rows) {
          yield this.quadOf(row.s, row.p, row.o, row.g.value);
        }
      }
    } finally {
      client.close();
    }
  }

  /** A graph too large for one answer, in pages (ordered, so that pages neither overlap nor skip). */
  private async *pagedGraph(client: SparqlClient, graph: string, size: number): AsyncGenerator<Quad> {
    let read = 0;
    for (let offset = 0; offset < size; offset += this.options.pageQuads) {
      const rows = await client.select(`SELECT ?s ?p ?o WHERE { GRAPH ${sparqlIri(graph)} { ?s ?p ?o } } ` +
        `ORDER BY ?s ?p ?o LIMIT ${this.options.pageQuads} OFFSET ${offset}`);
      read += rows.length;
      for (const row of rows) {
        yield this.quadOf(row.s, row.p, row.o, graph);
      }
    }
    if (read !== size) {
      throw new Error(`Graph ${graph}: read ${read} quads of ${size} (did it change during the export?)`);
    }
  }

  private async listGraphs(client: SparqlClient): Promise<[string, number][]> {
    const graphs: [string, number][] = [];
    for (let offset = 0; ; offset += GRAPH_LIST_PAGE) {
      const rows = await client.select('SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g ' +
        `ORDER BY ?g LIMIT ${GRAPH_LIST_PAGE} OFFSET ${offset}`);
      for (const row of rows) {
        graphs.push([ row.g.value, Number(row.n.value) ]);
      }
      if (rows.length < GRAPH_LIST_PAGE) {
        return graphs;
      }
    }
  }

  private quadOf(subject: Term, predicate: Term, object: Term, graph: string): Quad {
    if (subject.termType === 'BlankNode' || object.termType === 'BlankNode') {
      throw new Error(`Graph ${graph} holds a blank node: read over SELECT its label would not stay the same from one answer ` +
        'to the next. Export over the Graph Store Protocol (a Fuseki-style --sparql-endpoint) or with the store\'s own dump tool');
    }
    return quad(subject as Quad['subject'], predicate as Quad['predicate'], object as Quad['object'], namedNode(graph));
  }

  private async get(url: string, accept: string): Promise<http.IncomingMessage> {
    const target = new URL(url);
    const headers: Record<string, string> = { accept };
    if (this.options.user !== '') {
      headers.authorization = `Basic ${Buffer.from(`${this.options.user}:${this.options.password}`).toString('base64')}`;
    }
    return new Promise((resolve, reject): void => {
      const request = (target.protocol === 'https:' ? https : http).get(target, { headers }, resolve);
      request.setTimeout(this.options.timeoutMs, (): void => {
        request.destroy(new Error(`GET ${url}: no answer in ${this.options.timeoutMs} ms`));
      });
      request.on('error', reject);
    });
  }
}
