import type { Quad } from '@rdfjs/types';
import { quadsToText } from '../../util/RdfText';
import type { JsonObject } from './Contexts';
import { contextUrlFor, fedpodContext } from './Contexts';
import type { DocumentLoader } from './DocumentLoader';
import { compactWithJsonLd } from './JsonLdFallback';
import { JsonLdCompactor, UnsupportedShapeError } from './JsonLdCompactor';

export const JSON_LD = 'application/ld+json';
export const TURTLE = 'text/turtle';
export const N_TRIPLES = 'application/n-triples';

const TURTLE_PREFIXES = {
  as: 'https://www.w3.org/ns/activitystreams#',
  ldp: 'http://www.w3.org/ns/ldp#',
  dc: 'http://purl.org/dc/terms/',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  sec: 'https://w3id.org/security#',
  foaf: 'http://xmlns.com/foaf/0.1/',
};

/**
 * Serialises stored quads as compacted JSON-LD (Fedpod's context), Turtle or N-Triples.
 * JSON-LD goes through the fast JsonLdCompactor, and through jsonld.js for the shapes it leaves out.
 */
export class RdfSerializer {
  private readonly compactor: JsonLdCompactor;
  private readonly context = fedpodContext()['@context'] as JsonObject;
  private readonly contextUrl: string;

  /**
   * @param baseUrl - Public base URL; documents name `{baseUrl}context.json` as their `@context`.
   * @param documentLoader - Loader of bundled contexts (for the jsonld.js fallback).
   */
  public constructor(
    baseUrl: string,
    private readonly documentLoader: DocumentLoader,
  ) {
    this.contextUrl = contextUrlFor(baseUrl);
    this.compactor = new JsonLdCompactor(this.context);
  }

  public get contextReference(): string {
    return this.contextUrl;
  }

  /** A whole document about `rootIri`, with `@context` first. */
  public async toJsonLd(quads: readonly Quad[], rootIri: string): Promise<JsonObject> {
    const body = await this.compactNode(quads, rootIri);
    return { '@context': this.contextUrl, ...body };
  }

  /** A node (no @context) for embedding in another document, such as a container listing. */
  public async compactNode(quads: readonly Quad[], rootIri: string): Promise<JsonObject> {
    try {
      return this.compactor.compact(quads, rootIri);
    } catch (error: unknown) {
      if (!(error instanceof UnsupportedShapeError)) {
        throw error;
      }
      return compactWithJsonLd(quads, this.context, rootIri, this.documentLoader);
    }
  }

  public compactIri(iri: string): string {
    return this.compactor.compactIri(iri);
  }

  /**
   * Turtle or N-Triples. `prefixes`: the document's own (those it was written with), used for Turtle
   * instead of the server's.
   */
  public async toText(quads: readonly Quad[], contentType: string, prefixes?: Readonly<Record<string, string>>): Promise<string> {
    // Grouped by subject so Turtle reads as one block per node.
    const sorted = [ ...quads ].sort((a, b): number => a.subject.value.localeCompare(b.subject.value));
    return quadsToText(sorted, contentType === TURTLE ? { prefixes: prefixes ?? TURTLE_PREFIXES } : { format: 'N-Triples' });
  }
}
