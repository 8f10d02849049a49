import { Readable } from 'node:stream';
import type { HttpHandler, ReadWriteLocker } from '@solid/community-server';
import type { Quad } from '@rdfjs/types';
import { isFileType } from '../../plugins/ldp/RdfOrFileConverter';
import type { ResourceFiles } from '../../storage/ResourceFiles';
import { fileMetadata, fileNameOf } from '../../storage/ResourceFiles';
import { documentMetadata, type ResourceGraphs } from '../../storage/ResourceGraphs';
import { isAuxiliary } from '../../storage/StoreVocabulary';
import { fileContentType } from '../../util/ContentTypes';
import { mediaTypeOf, readBody } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import { LdpPaths } from './LdpPaths';
import type { LdpWriteHandlerOptions } from './LdpWriteHandlerOptions';
import type { OperationInput } from '../http/Operation';

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
export class LdpFilePutHandler extends JsonHttpHandler {
  private readonly paths: LdpPaths;
  private readonly store: ResourceGraphs;
  private readonly files: ResourceFiles;
  private readonly locker: ReadWriteLocker;
  private readonly fallback: HttpHandler;
  private readonly maxBodyBytes: number;

  /** @param options - `fallback` is required here: CSS's LDP handler, for the PUTs this one leaves to it. */
  public constructor(options: LdpWriteHandlerOptions) {
    super();
    if (!options.fallback) {
      throw new Error('LdpFilePutHandler needs CSS\'s LDP handler as its fallback.');
    }
    this.paths = new LdpPaths(options.baseUrl);
    this.store = options.store;
    this.files = options.files;
    this.locker = options.locker;
    this.fallback = options.fallback;
    this.maxBodyBytes = options.maxBodyBytes ?? 1_048_576;
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

  protected async serve(input: OperationInput): Promise<void> {
    const { request, response, operation } = input;
    const iri = this.paths.resolve(operation.target)!.iri;
    const parent = iri.slice(0, iri.lastIndexOf('/') + 1);
    const type = fileContentType(request.headers['content-type'], mediaTypeOf(request.headers['content-type']));
    // Under CSS's lock of the resource (released before CSS, which takes it itself, is asked).
    const outcome = await this.locker.withWriteLock({ path: iri }, async(): Promise<'created' | 'replaced' | 'css'> => {
      const { metadata, present } = await this.store.readMetadataAndPresence(iri, [ parent, `${iri}/` ]);
      if (!present.has(parent) || present.has(`${iri}/`)) {
        return 'css';
      }
      await this.write(parent, iri, await readBody(request, this.maxBodyBytes), type, metadata);
      return metadata.length === 0 ? 'created' : 'replaced';
    });
    if (outcome === 'css') {
      await this.fallback.handleSafe(input);
      return;
    }
    if (outcome === 'created') {
      response.writeHead(201, { location: iri, 'content-length': '0' });
    } else {
      response.writeHead(205, { 'content-length': '0' });
    }
    response.end();
  }

  /** Writes the new version over `previous` (the metadata of the version it replaces, empty when new). */
  private async write(parent: string, iri: string, body: Buffer, type: string, previous: Quad[]): Promise<void> {
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
