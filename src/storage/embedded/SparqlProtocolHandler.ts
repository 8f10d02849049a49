import type { AcceptNegotiator } from './AcceptNegotiator';
import type { BasicAuthGuard } from './BasicAuthGuard';
import { DatasetOperationApplier } from './DatasetOperationApplier';
import type { EmbeddedDataset, QueryDatasetOverride } from './EmbeddedDataset';
import { FedpodHttpError } from '../../util/HttpErrors';
import { InvalidOperationError } from './InvalidOperationError';
import { FORMAT_PARAMETER_ALIASES } from './SparqlMediaTypes';
import type { ResponseSender } from './ResponseSender';
import type { SparqlQueryFormSniffer } from './SparqlQueryFormSniffer';
import type { StoreRequestContext } from './StoreRequestContext';

/**
 * Executes SPARQL protocol queries and updates once the router has found the
 * query/update text. Results are serialized by Oxigraph straight into the
 * negotiated format, so no per-solution JS objects are created.
 */
export class SparqlProtocolHandler {
  public constructor(
    private readonly guard: BasicAuthGuard,
    private readonly sender: ResponseSender,
    private readonly sniffer: SparqlQueryFormSniffer,
    private readonly resultsNegotiator: AcceptNegotiator,
    private readonly graphNegotiator: AcceptNegotiator,
  ) {}

  /** `params` carries the protocol parameters (URL or form): default-graph-uri, named-graph-uri, format. */
  public query(context: StoreRequestContext, dataset: EmbeddedDataset, query: string | null, params: URLSearchParams): void {
    const answer = this.answer(dataset, query, context.request.headers.accept, params);
    this.sender.send(context.response, 200, answer.contentType, answer.body);
  }

  /** A query's results, serialized in the format `accept` (or a `format` parameter) asks for. */
  public answer(dataset: EmbeddedDataset, query: string | null, accept: string | undefined, params: URLSearchParams):
  { contentType: string; body: string } {
    if (!query) {
      throw new FedpodHttpError(400, 'bad_request', 'Missing query (use ?query=, a form field "query" or an application/sparql-query body)');
    }
    const override = this.overrideFrom(params);
    const form = this.sniffer.sniff(query);
    const graphForm = form === 'CONSTRUCT' || form === 'DESCRIBE';
    let format = this.formatFor(accept, params, graphForm);
    let body: string;
    try {
      body = dataset.query(query, format, override);
    } catch (error: unknown) {
      // The sniffer gave up and guessed wrong: it was a graph query after all.
      if (form !== undefined || !(error instanceof InvalidOperationError) || !error.message.includes('RDF format')) {
        throw error;
      }
      format = this.formatFor(accept, params, true);
      body = dataset.query(query, format, override);
    }
    return { contentType: `${format}; charset=utf-8`, body };
  }

  public async update(context: StoreRequestContext, dataset: EmbeddedDataset, update: string | null, params: URLSearchParams): Promise<void> {
    if (!this.guard.permits(context.auth, true)) {
      throw new FedpodHttpError(401, 'unauthorized', 'Unauthorized');
    }
    if (!update) {
      throw new FedpodHttpError(400, 'bad_request', 'Missing update (use a form field "update" or an application/sparql-update body)');
    }
    if (params.has('using-graph-uri') || params.has('using-named-graph-uri')) {
      // Silently ignoring them would change what the update matches.
      throw new FedpodHttpError(400, 'bad_request', 'using-graph-uri / using-named-graph-uri are not supported; use USING in the update');
    }
    await dataset.update(update);
    this.sender.empty(context.response, 204);
  }

  private formatFor(accept: string | undefined, params: URLSearchParams, graphForm: boolean): string {
    const negotiator = graphForm ? this.graphNegotiator : this.resultsNegotiator;
    const requested = params.get('format') ?? params.get('output');
    if (requested) {
      const explicit = negotiator.find(FORMAT_PARAMETER_ALIASES.get(requested.toLowerCase()) ?? requested);
      if (explicit) {
        return explicit;
      }
    }
    return negotiator.choose(accept);
  }

  private overrideFrom(params: URLSearchParams): QueryDatasetOverride | undefined {
    const defaultGraphIris = params.getAll('default-graph-uri');
    const namedGraphIris = params.getAll('named-graph-uri');
    if (defaultGraphIris.length === 0 && namedGraphIris.length === 0) {
      return undefined;
    }
    for (const iri of [ ...defaultGraphIris, ...namedGraphIris ]) {
      if (!DatasetOperationApplier.isSafeIri(iri)) {
        throw new FedpodHttpError(400, 'bad_request', `Not an absolute IRI: ${iri}`);
      }
    }
    return { defaultGraphIris, namedGraphIris };
  }
}
