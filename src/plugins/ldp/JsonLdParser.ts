import type { Quad } from '@rdfjs/types';
import jsonld from 'jsonld';
import { DataFactory } from 'n3';
import { badRequest } from '../../util/HttpErrors';
import { repairIri } from '../../util/Iris';
import { MAX_JSON_DEPTH, parseJsonText } from '../../util/JsonText';
import { ACTIVITYSTREAMS_CONTEXT_URL, contextUrlFor, FEDIVERSE_TERMS, UNDEFINED_TERMS_VOCAB } from './Contexts';
import type { DocumentLoader } from './DocumentLoader';
import { messageOf } from '../../util/Errors';
import { withValuePositions } from './ValueOrder';

const { namedNode, blankNode, literal, quad, defaultGraph } = DataFactory;

interface JsonLdTerm {
  termType: string;
  value: string;
  datatype?: { value: string };
  language?: string;
}

/** A quad as jsonld.js `toRDF` returns it (plain objects, blank nodes labelled `_:x`). */
export interface JsonLdQuad {
  subject: JsonLdTerm;
  predicate: JsonLdTerm;
  object: JsonLdTerm;
  graph: JsonLdTerm;
}

function fromJsonLdTerm(term: JsonLdTerm, iri: (value: string) => string): Quad['object'] {
  switch (term.termType) {
    case 'NamedNode': return namedNode(iri(term.value));
    case 'BlankNode': return blankNode(term.value.replace(/^_:/u, ''));
    // `und` (undetermined, Pleroma's default `@language`) says nothing: a plain string, as senders mean it.
    default: return term.language && term.language !== 'und' ?
      literal(term.value, term.language) :
      literal(term.value, term.datatype ? namedNode(term.datatype.value) : undefined);
  }
}

/**
 * jsonld.js quads as n3 quads in the default graph (named graphs are left out), each IRI passed
 * through `iri` (documents from other servers: repairIri).
 */
export function fromJsonLdQuads(raw: readonly JsonLdQuad[], iri = (value: string): string => value): Quad[] {
  return raw.filter((entry): boolean => entry.graph.termType === 'DefaultGraph').map((entry): Quad => quad(
    fromJsonLdTerm(entry.subject, iri) as Quad['subject'],
    namedNode(iri(entry.predicate.value)),
    fromJsonLdTerm(entry.object, iri),
    defaultGraph(),
  ));
}

/** How JsonLdParser.toQuads reads a document. */
export interface JsonLdReadOptions {
  lenient?: boolean;
  fediverse?: boolean;
}

/**
 * Turns a posted JSON or JSON-LD body into quads about the new resource.
 * - Plain JSON without `@context` is read with Fedpod's context, so `{"type":"Note","content":"hi"}` works.
 * - A top-level node without an id becomes the new resource itself (as ActivityPub servers mint ids),
 *   so the stored triples are about the resource URL rather than an anonymous node.
 * - Relative IRIs resolve against the new resource URL.
 */
export class JsonLdParser {
  private readonly defaultContextUrl: string;

  /**
   * @param baseUrl - Public base URL (plain JSON is read with {base}context.json).
   * @param documentLoader - Loader of contexts (bundled ones; for other servers' documents, fetched ones too).
   */
  public constructor(
    baseUrl: string,
    private readonly documentLoader: DocumentLoader,
  ) {
    this.defaultContextUrl = contextUrlFor(baseUrl);
  }

  /** A JSON body parsed: 400 when it is not JSON or nests deeper than MAX_JSON_DEPTH (jsonld.js recurses). */
  public parseJson(body: Buffer): unknown {
    return parseJsonText(body.toString('utf8'), MAX_JSON_DEPTH, true);
  }

  /**
   * @param options - `lenient`: for documents from other servers, unknown contexts read as empty (see
   *   DocumentLoader) and invalid IRIs repaired (repairIri). `fediverse`: for ActivityPub documents, FEDIVERSE_TERMS as defaults under the
   *   document's own context (never for LDP documents, whose own `@vocab` must keep its meaning).
   */
  public async toQuads(document: unknown, resourceIri: string, options: JsonLdReadOptions = {}): Promise<Quad[]> {
    const { lenient = false, fediverse = false } = options;
    if (!document || typeof document !== 'object' || Array.isArray(document)) {
      throw badRequest('The body must be a JSON object.', 'invalid_jsonld');
    }
    // ActivityPub documents keep the order of a Question's options, which RDF alone would lose.
    const node = { ...(fediverse ? withValuePositions(document) : document) as Record<string, unknown> };
    if (node['@context'] === undefined) {
      node['@context'] = this.defaultContextUrl;
    }
    if (fediverse) {
      // The defaults first, so that every term the document's context defines overrides them; the
      // vocabulary for undefined terms last, over ActivityStreams' blank `_:` (unless the sender set its own).
      const own = Array.isArray(node['@context']) ? node['@context'] as unknown[] : [ node['@context'] ];
      const ownVocab = own.some((entry): boolean => Boolean(entry) && typeof entry === 'object' &&
        typeof (entry as Record<string, unknown>)['@vocab'] === 'string' && !((entry as Record<string, string>)['@vocab']).startsWith('_:'));
      // ActivityStreams before them: a sender that leaves it out still means `id`, `type`, `Note`.
      node['@context'] = [ ACTIVITYSTREAMS_CONTEXT_URL, FEDIVERSE_TERMS, ...own, ...ownVocab ? [] : [ { '@vocab': UNDEFINED_TERMS_VOCAB } ]];
    }
    if (node['@id'] === undefined && node.id === undefined && node['@graph'] === undefined) {
      node['@id'] = resourceIri;
    }
    let raw: JsonLdQuad[];
    try {
      raw = await this.toRdf(node, resourceIri, lenient ? this.documentLoader.loadLenient : this.documentLoader.load);
    } catch (error: unknown) {
      if (!lenient) {
        throw badRequest(`The body is not valid JSON-LD: ${this.describe(error)}`, 'invalid_jsonld');
      }
      // A context fetched from elsewhere may be what makes it unreadable (a protected term redefined):
      // read as if that context could not be had, so the activity is kept with the terms it still has.
      try {
        raw = await this.toRdf(node, resourceIri, this.documentLoader.loadOffline);
      } catch {
        throw badRequest(`The body is not valid JSON-LD: ${this.describe(error)}`, 'invalid_jsonld');
      }
    }
    // Another server's ids are its own to mint; one a store would refuse is made valid (repairIri).
    return fromJsonLdQuads(raw, lenient ? repairIri : undefined);
  }

  private async toRdf(node: Record<string, unknown>, base: string, documentLoader: DocumentLoader['load']): Promise<JsonLdQuad[]> {
    return await jsonld.toRDF(node as jsonld.JsonLdDocument, { base, documentLoader: documentLoader as never, safe: false } as
      jsonld.Options.ToRdf) as unknown as JsonLdQuad[];
  }

  private describe(error: unknown): string {
    const details = (error as { details?: { cause?: { message?: string } } }).details;
    const cause = details?.cause?.message;
    return cause ? `${messageOf(error)} (${cause})` : messageOf(error);
  }
}
