import { Readable } from 'node:stream';
import type { Conditions } from '@solid/community-server';
import type { Quad } from '@rdfjs/types';
import { isFileType } from '../../plugins/ldp/RdfOrFileConverter';
import { fileMetadata, fileNameOf } from '../../storage/ResourceFiles';
import { documentMetadata } from '../../storage/ResourceGraphs';
import { isAuxiliary } from '../../storage/StoreVocabulary';
import { fileContentType } from '../../util/ContentTypes';
import { mediaTypeOf, readBody } from '../http/HttpUtil';
import { NOT_HANDLED } from '../http/NotHandled';
import type { Operation, OperationInput } from '../http/Operation';
import type { DocumentWriteOutcome } from './LdpDocumentWriteHandler';
import { LdpDocumentWriteHandler } from './LdpDocumentWriteHandler';
import type { LdpWriteHandlerOptions } from './LdpWriteHandlerOptions';

/** Preconditions CSS evaluates (against its own view of the resource): those PUTs go to CSS. */
const CONDITIONS = [ 'if-match', 'if-none-match', 'if-unmodified-since', 'if-modified-since' ];

/**
 * PUT of a file (a non-RDF body) into an existing container, without CSS's pipeline: read the body
 * (413 past the limit), write its bytes (ResourceFiles: on disk before the store names them) and its
 * description, containment and the container's modification date in one store update, under CSS's
 * lock of the resource; 201 with Location for a new resource, 205 for a replaced one, as CSS answers.
 * Left to CSS (here, with the body unread): preconditions, a missing parent container (CSS creates
 * it), a name taken by a container, ACLs and descriptions, RDF and JSON bodies.
 */
export class LdpFilePutHandler extends LdpDocumentWriteHandler {
  /** @param options - `fallback` is required here: CSS's LDP handler, for the PUTs this one leaves to it. */
  public constructor(options: LdpWriteHandlerOptions) {
    super(options);
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    if (request.method !== 'PUT' || !isFileType(mediaTypeOf(request.headers['content-type'])) ||
      CONDITIONS.some((name): boolean => request.headers[name] !== undefined) || request.headers.link !== undefined) {
      throw NOT_HANDLED;
    }
    const target = this.paths.resolve(operation.target);
    if (!target || target.iri.endsWith('/') || isAuxiliary(target.iri) || this.paths.isReservedPath(target.path)) {
      throw NOT_HANDLED;
    }
  }

  protected async write(operation: Operation, iri: string, parent: string, _conditions: Conditions | undefined):
  Promise<DocumentWriteOutcome> {
    const { request } = operation;
    const type = fileContentType(request.headers['content-type'], mediaTypeOf(request.headers['content-type']));
    const { metadata, present } = await this.store.readMetadataAndPresence(iri, [ parent, `${iri}/` ]);
    if (!present.has(parent) || present.has(`${iri}/`)) {
      return 'css';
    }
    await this.save(parent, iri, await readBody(request, this.maxBodyBytes), type, metadata);
    return metadata.length === 0 ? 'created' : 'changed';
  }

  /** Writes the new version over `previous` (the metadata of the version it replaces, empty when new). */
  private async save(parent: string, iri: string, body: Buffer, type: string, previous: Quad[]): Promise<void> {
    const now = new Date();
    await this.files.saveDescribed(Readable.from([ body ]), async(saved): Promise<void> => {
      const metadata = [ ...documentMetadata(iri, now), ...fileMetadata(iri, saved, type) ];
      await (previous.length === 0 ?
        this.store.createInContainer(parent, iri, [], metadata, now) :
        this.store.write(iri, parent, metadata, []));
    });
    const previousFile = fileNameOf(previous);
    if (previousFile) {
      await this.files.remove(previousFile);
    }
  }
}
