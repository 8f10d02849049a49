import arrayifyStream from 'arrayify-stream';
import type { Representation, RepresentationConverterArgs } from '@solid/community-server';
import {
  BadRequestHttpError,
  BasicRepresentation,
  INTERNAL_QUADS,
  RepresentationConverter,
  UnsupportedMediaTypeHttpError,
} from '@solid/community-server';
import { SaxesParser } from 'saxes';
import { isAuxiliary } from '../../storage/StoreVocabulary';
import type { JsonLdParser } from './JsonLdParser';

const JSON_TYPES = new Set([ 'application/json', 'application/ld+json', 'application/activity+json' ]);
/**
 * The RDF syntaxes stored as triples (besides JSON-LD). HTML, SVG and other formats that can embed
 * RDF are files: a page is served back as it was written, not as the triples found in it.
 */
const RDF_TYPES = new Set([ 'text/turtle', 'application/n-triples', 'application/n-quads', 'application/trig', 'text/n3',
  'application/rdf+xml' ]);

/**
 * Whether a JSON document is linked data: it (or every element of a top-level array) is an object
 * with an `@context`, an `@type` or a `type` (read with Fedpod's context, as the documented API's
 * `POST /notes` with `{"type": "Note", ...}`). Any other JSON is a file, kept byte for byte.
 */
export function isLinkedJson(document: unknown): boolean {
  const linked = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value) &&
    ('@context' in value || '@type' in value || 'type' in value);
  return Array.isArray(document) ? document.length > 0 && document.every(linked) : linked(document);
}


/**
 * Whether a body of this media type is stored as a file whatever it holds (JSON types are decided by
 * their content, RDF types are triples).
 */
export function isFileType(type: string): boolean {
  return type !== '' && type !== INTERNAL_QUADS && !JSON_TYPES.has(type) && !RDF_TYPES.has(type);
}

/** A body kept as it is, a file; ACLs and descriptions are refused (415), they must be RDF. */
function asFile(representation: Representation, iri: string): Representation {
  if (isAuxiliary(iri)) {
    throw new UnsupportedMediaTypeHttpError('ACL and description documents are RDF: send Turtle or JSON-LD.');
  }
  return representation;
}

/**
 * What the store keeps of a document, decided where its IRI is known (the data accessor calls it with
 * the document's own IRI, so relative IRIs and `<>` in a body POSTed to a container name the new
 * resource, not the container). RDF (Turtle, JSON-LD, N-Triples...) becomes quads; any other body is
 * kept as it is, a non-RDF source served back byte for byte. `application/json` is JSON-LD when it is
 * linked data (isLinkedJson) and a JSON file otherwise. JSON-LD is read by Fedpod's JsonLdParser, as
 * Fedpod's own POST reads it (bundled contexts, nothing fetched; a top-level node without an id is the
 * document itself, not a blank node); other RDF by CSS's converter. ACL and description documents
 * must be RDF (415 otherwise).
 */
export class RdfOrFileConverter extends RepresentationConverter {
  /**
   * @param rdfConverter - CSS's converter, used to reach `internal/quads` from Turtle, N-Triples...
   * @param parser - Fedpod's JSON-LD reader.
   */
  public constructor(
    private readonly rdfConverter: RepresentationConverter,
    private readonly parser: JsonLdParser,
  ) {
    super();
  }

  public override async canHandle(): Promise<void> {
    // Every body is stored: as triples when it is RDF, else as a file.
  }

  public override async handle({ identifier, representation }: RepresentationConverterArgs): Promise<Representation> {
    const type = representation.metadata.contentType;
    if (type === INTERNAL_QUADS) {
      return representation;
    }
    if (JSON_TYPES.has(type ?? '')) {
      return this.readJson(representation, identifier.path);
    }
    if (!RDF_TYPES.has(type ?? '')) {
      return asFile(representation, identifier.path);
    }
    const rdf = type === 'application/rdf+xml' ? await this.wellFormedXml(representation) : representation;
    return this.rdfConverter.handleSafe({ identifier, representation: rdf, preferences: { type: { [INTERNAL_QUADS]: 1 }}});
  }

  /**
   * The body, refused (400) unless it is well-formed XML. CSS's RDF/XML parser never closes its XML
   * parser, so a cut-off document (an unclosed element) gave the triples read so far, or none, and a 201.
   */
  private async wellFormedXml(representation: Representation): Promise<Representation> {
    const bytes = await this.bytesOf(representation);
    const xml = new SaxesParser({ xmlns: true });
    let failure: Error | undefined;
    xml.on('error', (error): void => {
      failure ??= error;
    });
    xml.write(bytes.toString('utf8')).close();
    if (failure) {
      throw new BadRequestHttpError(`The body is not well-formed RDF/XML: ${failure.message}`);
    }
    return new BasicRepresentation([ bytes ], representation.metadata);
  }

  private async bytesOf(representation: Representation): Promise<Buffer> {
    return Buffer.concat((await arrayifyStream<Buffer | string>(representation.data))
      .map((chunk): Buffer => typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
  }

  /** JSON-LD (and JSON that is linked data) as quads about the document; any other JSON as a file. */
  private async readJson(representation: Representation, iri: string): Promise<Representation> {
    // As bytes: a multi-byte character split between chunks must reach a JSON file unchanged.
    const bytes = await this.bytesOf(representation);
    const metadata = representation.metadata;
    // A body that says it is JSON must be JSON (400 otherwise).
    const document = this.parser.parseJson(bytes);
    if (metadata.contentType === 'application/json' && !isLinkedJson(document)) {
      return asFile(new BasicRepresentation([ bytes ], metadata), iri);
    }
    const quads = await this.parser.toQuads(document, iri);
    metadata.contentType = INTERNAL_QUADS;
    return new BasicRepresentation(quads, metadata);
  }
}
