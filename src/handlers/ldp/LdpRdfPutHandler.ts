import type { Conditions, RepresentationConverter } from '@solid/community-server';
import { BasicRepresentation, INTERNAL_QUADS } from '@solid/community-server';
import type { NamedNode, Quad } from '@rdfjs/types';
import type { Readable } from 'node:stream';
import arrayifyStream from 'arrayify-stream';
import { Parser } from 'n3';
import { isFileType } from '../../plugins/ldp/RdfOrFileConverter';
import { fileMetadata, fileNameOf } from '../../storage/ResourceFiles';
import { notedPrefixes, prefixMetadata } from '../../storage/DocumentPrefixes';
import { documentMetadata } from '../../storage/ResourceGraphs';
import { defaultGraphOnly } from '../../storage/SparqlStoreAccessor';
import { LDP_RESOURCE } from '../../storage/StoreVocabulary';
import { badRequest } from '../../util/HttpErrors';
import { messageOf } from '../../util/Errors';
import { fileContentType } from '../../util/ContentTypes';
import { mediaTypeOf, readBody } from '../http/HttpUtil';
import { NOT_HANDLED } from '../http/NotHandled';
import type { Operation, OperationInput } from '../http/Operation';
import type { DocumentWriteOutcome } from './LdpDocumentWriteHandler';
import { LdpDocumentWriteHandler } from './LdpDocumentWriteHandler';
import { checkConditions, documentTarget } from './LdpDocumentWrites';
import type { LdpWriteHandlerOptions } from './LdpWriteHandlerOptions';
import { NESTED_SYNTAXES, nestingDepthOver } from './RdfNestingDepth';

/** As RdfBodyGuardHandler's limit in config/parts/http/handler.json. */
const MAX_NESTING_DEPTH = 128;

/**
 * Syntaxes parsed here with n3's parser, the one CSS's converter runs for them (through rdf-parse),
 * without the converter chain's search, which costs a PUT of a small document more than its parse.
 */
const N3_SYNTAXES = new Set([ 'text/turtle', 'application/n-triples' ]);

/** The one Link a Solid client sends with a document's PUT (solid-client's saveSolidDatasetAt): it is a resource. */
const RESOURCE_LINK = new RegExp(`^\\s*<${LDP_RESOURCE.replaceAll('.', '\\.')}>\\s*;\\s*rel="?type"?\\s*$`, 'u');

/**
 * PUT of an RDF document (Turtle, JSON-LD, N-Triples...) into an existing container, without CSS's
 * pipeline: under CSS's lock of the resource, the preconditions (If-Match, If-None-Match,
 * If-Unmodified-Since, judged by CSS's classes against the stored metadata: 412), then the body,
 * read and parsed whole (RdfOrFileConverter, the document's IRI as base: a bad body is a 400 with
 * nothing written), then one store update: the new triples and metadata, containment and the
 * container's modification date. 201 with Location for a new document, 205 for a replaced one, as
 * CSS answers; the store announces the change (Solid notifications). JSON that is not linked data is
 * kept as a file, as CSS's path keeps it.
 * Left to CSS, with the body unread: a missing parent container (CSS creates it), a name taken by a
 * container (409), ACLs and descriptions, any other Link header (a container type is a 400 there).
 */
/** A parsed RDF body and the prefixes it declared (kept for Turtle served later). */
interface ParsedDocument {
  quads: Quad[];
  prefixes: Record<string, string>;
}

export class LdpRdfPutHandler extends LdpDocumentWriteHandler {
  private readonly converter: RepresentationConverter;

  /** @param options - `fallback` is required here: CSS's LDP handler, for the PUTs this one leaves to it. */
  public constructor(options: LdpWriteHandlerOptions) {
    super(options);
    this.converter = options.converter;
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    const type = mediaTypeOf(request.headers['content-type']);
    const link = request.headers.link;
    if (request.method !== 'PUT' || type === '' || isFileType(type) ||
      (link !== undefined && !RESOURCE_LINK.test(Array.isArray(link) ? link.join(',') : link)) ||
      !documentTarget(this.paths, operation.target)) {
      throw NOT_HANDLED;
    }
  }

  protected async write(operation: Operation, iri: string, parent: string, conditions: Conditions | undefined):
  Promise<DocumentWriteOutcome> {
    const { request } = operation;
    const { metadata, present } = await this.store.readMetadataAndPresence(iri, [ parent, `${iri}/` ]);
    if (!present.has(parent) || present.has(`${iri}/`)) {
      return 'css';
    }
    checkConditions(conditions, iri, metadata);
    const type = mediaTypeOf(request.headers['content-type']);
    const body = await readBody(request, this.maxBodyBytes);
    // As in front of CSS's handler (RdfBodyGuardHandler): a recursive parser never sees a too deep body.
    if (NESTED_SYNTAXES.has(type) && nestingDepthOver(body.toString('utf8'), MAX_NESTING_DEPTH)) {
      throw badRequest(`The body is nested more than ${MAX_NESTING_DEPTH} levels deep.`, 'too_deeply_nested');
    }
    await this.save(parent, iri, body, fileContentType(request.headers['content-type'], type), metadata);
    return metadata.length === 0 ? 'created' : 'changed';
  }

  /**
   * Parses the body, then writes it over `previous` (the metadata of the version it replaces, empty
   * when new). `type` is the media type with its charset (kept for a JSON file).
   */
  private async save(parent: string, iri: string, body: Buffer, type: string, previous: Quad[]): Promise<void> {
    const now = new Date();
    const metadata = documentMetadata(iri, now);
    const parsed = await this.parse(iri, body, mediaTypeOf(type));
    const store = async(data: Quad[], described: Quad[]): Promise<void> => previous.length === 0 ?
      this.store.createInContainer(parent, iri, data, described, now) :
      this.store.write(iri, parent, described, data);
    if ('quads' in parsed) {
      await store(parsed.quads, [ ...metadata, ...prefixMetadata(iri, parsed.prefixes) ]);
    } else {
      await this.files.saveDescribed(parsed, async(saved): Promise<void> => store([], [ ...metadata, ...fileMetadata(iri, saved, type) ]));
    }
    // The bytes of a file this document replaces, once the store no longer names them.
    const previousFile = fileNameOf(previous);
    if (previousFile) {
      await this.files.remove(previousFile);
    }
  }

  /**
   * The body's triples (relative IRIs against the document), or, for JSON that is not linked data,
   * its bytes to keep as a file (RdfOrFileConverter decides); 400 for a body that does not parse.
   */
  private async parse(iri: string, body: Buffer, type: string): Promise<ParsedDocument | Readable> {
    if (N3_SYNTAXES.has(type)) {
      const prefixes: Record<string, string> = {};
      try {
        const quads = new Parser({ baseIRI: iri, format: type }).parse(body.toString('utf8'), null,
          (name: string, namespace: NamedNode): void => {
            prefixes[name] = namespace.value;
          });
        return { quads, prefixes };
      } catch (error: unknown) {
        throw badRequest(messageOf(error));
      }
    }
    const stored = await this.converter.handleSafe({ identifier: { path: iri },
      representation: new BasicRepresentation([ body ], type), preferences: { type: { [INTERNAL_QUADS]: 1 }}});
    if (stored.metadata.contentType !== INTERNAL_QUADS) {
      return stored.data;
    }
    // The prefixes are noted as the stream is read, so read it first.
    const quads = defaultGraphOnly(await arrayifyStream<Quad>(stored.data));
    return { quads, prefixes: notedPrefixes(stored.metadata.quads()) };
  }
}
