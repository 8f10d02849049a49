import type { Quad } from '@rdfjs/types';
import { Writer } from 'n3';
import { HttpTransport } from './HttpTransport';
import { graphValuesOf, insertUpdateOf } from './QuadUpdates';
import { SparqlClient } from './SparqlClient';

/** How a loader writes. */
export type LoadMethod = 'graph-store' | 'update';

export interface StoreLoaderOptions {
  readonly queryUrl: string;
  readonly updateUrl: string;
  /** The store's Graph Store Protocol URL for the whole dataset, or '' to write with SPARQL updates. */
  readonly graphStoreUrl: string;
  readonly user: string;
  readonly password: string;
  /** Per-request timeout in ms. */
  readonly timeoutMs: number;
}

/** Statuses by which a store says it takes no quads over the Graph Store Protocol. */
const NO_DATASET_POST = new Set([ 404, 405, 415, 501 ]);

/**
 * Writes quads into a SPARQL store a batch at a time (the caller bounds the batches): one Graph
 * Store Protocol POST of N-Quads per batch where the store takes one (Fuseki, the embedded store),
 * else one SPARQL update (QuadUpdates). Also answers what an import asks of its target: does it
 * hold anything, or any of these graphs, and how many quads.
 */
export class StoreLoader {
  private readonly client: SparqlClient;
  private readonly transport = new HttpTransport(2);
  private readonly authorization: string | undefined;
  private graphStore: boolean;
  private loaded = 0;

  public constructor(private readonly options: StoreLoaderOptions) {
    this.client = new SparqlClient(options.queryUrl, options.updateUrl, options.user, options.password, options.timeoutMs);
    this.graphStore = options.graphStoreUrl !== '';
    this.authorization = options.user === '' ? undefined :
      `Basic ${Buffer.from(`${options.user}:${options.password}`).toString('base64')}`;
  }

  public get method(): LoadMethod {
    return this.graphStore ? 'graph-store' : 'update';
  }

  /** Adds `quads`, in one request. Blank node labels stand for the same node throughout it. */
  public async add(quads: readonly Quad[]): Promise<void> {
    if (quads.length === 0) {
      return;
    }
    if (this.graphStore) {
      const headers: Record<string, string> = { 'content-type': 'application/n-quads' };
      if (this.authorization) {
        headers.authorization = this.authorization;
      }
      const answer = await this.transport.send({ method: 'POST', url: this.options.graphStoreUrl, headers,
        body: new Writer({ format: 'N-Quads' }).quadsToString(quads as Quad[]), timeoutMs: this.options.timeoutMs });
      if (answer.status >= 200 && answer.status < 300) {
        this.loaded += quads.length;
        return;
      }
      // Only before anything was written that way, so that a batch is never sent twice.
      if (this.loaded > 0 || !NO_DATASET_POST.has(answer.status)) {
        throw new Error(`The store refused a batch of ${quads.length} quads with ${answer.status}: ${answer.body.slice(0, 300)}`);
      }
      this.graphStore = false;
    }
    await this.client.update(insertUpdateOf(quads));
    this.loaded += quads.length;
  }

  /** True when the store holds any quad in a named graph or its default graph. */
  public async holdsAnything(): Promise<boolean> {
    return this.client.ask('ASK { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }');
  }

  /** True when any of `graphs` holds a quad on the store. */
  public async holdsAnyOf(graphs: readonly string[]): Promise<boolean> {
    return graphs.length > 0 && this.client.ask(`ASK { ${graphValuesOf(graphs)} GRAPH ?g { ?s ?p ?o } }`);
  }

  /** The number of quads in `graphs` on the store. */
  public async countIn(graphs: readonly string[]): Promise<number> {
    if (graphs.length === 0) {
      return 0;
    }
    const rows = await this.client.select(`SELECT (COUNT(*) AS ?n) WHERE { ${graphValuesOf(graphs)} GRAPH ?g { ?s ?p ?o } }`);
    return Number(rows[0]?.n.value ?? 0);
  }

  /** The number of quads in every named graph of the store. */
  public async countAll(): Promise<number> {
    const rows = await this.client.select('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }');
    return Number(rows[0]?.n.value ?? 0);
  }

  /** Empties `graphs` (an import with --force replaces the graphs it brings, leaving others alone). */
  public async clear(graphs: readonly string[]): Promise<void> {
    if (graphs.length > 0) {
      await this.client.update(`DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { ${graphValuesOf(graphs)} GRAPH ?g { ?s ?p ?o } }`);
    }
  }

  public close(): void {
    this.client.close();
    this.transport.close();
  }
}
