import type { IncomingMessage } from 'node:http';
import type { ReadWriteLocker, RepresentationConverter } from '@solid/community-server';
import { BasicRepresentation, INTERNAL_QUADS } from '@solid/community-server';
import { NOT_HANDLED } from '../http/NotHandled';
import type { Quad } from '@rdfjs/types';
import { generatedName, newResourceName } from '../../plugins/ldp/ResourceIds';
import arrayifyStream from 'arrayify-stream';
import type { ResourceFiles } from '../../storage/ResourceFiles';
import { fileMetadata } from '../../storage/ResourceFiles';
import { defaultGraphOnly } from '../../storage/SparqlStoreAccessor';
import { documentMetadata, type ResourceGraphs } from '../../storage/ResourceGraphs';
import { notedPrefixes, prefixMetadata } from '../../storage/DocumentPrefixes';
import { badRequest, forbidden, methodNotAllowed, notFound } from '../../util/HttpErrors';
import { fileContentType } from '../../util/ContentTypes';
import { mediaTypeOf, readBody } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';
import { prefersHtml } from '../http/BrowserAccept';
import { NOTE_FORM_FIELD } from '../html/ContainerListing';
import { ldpHeaders } from './LdpHeaders';
import { checkConditions, conditionsOf } from './LdpDocumentWrites';
import { LdpPaths } from './LdpPaths';
import type { LdpWriteHandlerOptions } from './LdpWriteHandlerOptions';
import { NESTED_SYNTAXES, nestingDepthOver } from './RdfNestingDepth';

/**
 * The note a browser posts with the container page's form (a form body with NOTE_FORM_FIELD, from a
 * request asking for HTML), as JSON-LD; undefined for any other body, which is stored as sent.
 */
function noteFromForm(request: IncomingMessage, type: string, body: Buffer): Buffer | undefined {
  if (type !== 'application/x-www-form-urlencoded' || !prefersHtml(request)) {
    return undefined;
  }
  const form = new URLSearchParams(body.toString('utf8'));
  if (form.get(NOTE_FORM_FIELD) !== 'note') {
    return undefined;
  }
  const content = form.get('content')?.trim();
  if (!content) {
    throw badRequest('A note needs some text.', 'invalid_form');
  }
  const name = form.get('name')?.trim();
  return Buffer.from(JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', type: 'Note', ...name ? { name } : {}, content,
    published: new Date().toISOString() }));
}

/** Names of auxiliary resources (`.acl`, `.meta`, and `.acr` of the ACP setups), which a Slug may not give. */
const AUXILIARY_NAME = /\.(?:acl|meta|acr)$/u;

/** As RdfBodyGuardHandler's limit in config/parts/http/handler.json. */
const MAX_NESTING_DEPTH = 128;

/** CSS's own parser of If-Match, If-None-Match and If-Unmodified-Since, so both paths judge them alike. */

/**
 * POST into a container, of any body: mint the IRI (Slug honoured, the same way for every media
 * type), store RDF as triples and anything else as a file (RdfOrFileConverter, with the new IRI as
 * base, so `<>` is the new resource), and write metadata, containment and the container's
 * modification date in one update; answer 201 with Location. Container creation (Link rel=type
 * ldp:Container) goes to CSS's pipeline. The body is fully read and parsed before anything is
 * written: a bad body changes nothing.
 *
 * Preconditions (If-Match, If-None-Match, If-Unmodified-Since) are evaluated as CSS evaluates them
 * for a POST: against the container, by CSS's own classes, so an ETag from a GET of the container
 * (either path) matches; a false one answers 412 with nothing written.
 */
export class LdpCreateHandler extends JsonHttpHandler {
  private readonly paths: LdpPaths;
  private readonly store: ResourceGraphs;
  private readonly converter: RepresentationConverter;
  private readonly locker: ReadWriteLocker;
  private readonly files: ResourceFiles;
  private readonly maxBodyBytes: number;

  public constructor(options: LdpWriteHandlerOptions) {
    super();
    this.paths = new LdpPaths(options.baseUrl, options.storages);
    this.store = options.store;
    this.converter = options.converter;
    this.locker = options.locker;
    this.files = options.files;
    this.maxBodyBytes = options.maxBodyBytes ?? 1_048_576;
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    if (request.method !== 'POST') {
      throw NOT_HANDLED;
    }
    const link = String(request.headers.link ?? '');
    if (/ldp#(?:Basic)?Container>\s*;\s*rel="?type/iu.test(link)) {
      throw NOT_HANDLED;
    }
    const target = this.paths.resolve(operation.target);
    if (!target || this.paths.isReservedPath(target.path)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const target = this.paths.resolve(operation.target)!;
    // Read and check the body first: a bad body answers 4xx with nothing written.
    let body = await readBody(request, this.maxBodyBytes);
    let type = mediaTypeOf(request.headers['content-type']) || 'application/octet-stream';
    const note = noteFromForm(request, type, body);
    if (note) {
      // The container page's form (ContainerPageTemplateEngine): stored as the JSON-LD note it stands for.
      body = note;
      type = 'application/ld+json';
    }
    const fileType = fileContentType(request.headers['content-type'], type);
    // As in front of CSS's handler (RdfBodyGuardHandler): a recursive parser never sees a too deep body.
    if (NESTED_SYNTAXES.has(type) && nestingDepthOver(body.toString('utf8'), MAX_NESTING_DEPTH)) {
      throw badRequest(`The body is nested more than ${MAX_NESTING_DEPTH} levels deep.`, 'too_deeply_nested');
    }
    const container = await this.findContainer(target.iri);
    const slug = request.headers.slug;
    if (AUXILIARY_NAME.test((Array.isArray(slug) ? slug[0] : slug ?? '').trim())) {
      // Solid Protocol §5.3: a Slug naming an auxiliary resource is refused with 403 (as CSS does), not renamed.
      throw forbidden('A Slug may not name an auxiliary resource (.acl, .meta): nothing was created.', 'auxiliary_slug');
    }
    const name = newResourceName(Array.isArray(slug) ? slug[0] : slug);
    let iri = `${container}${name}`;
    const now = new Date();
    const create = async(): Promise<void> => {
      if (slug) {
        // A client-chosen name may collide: check and write under CSS's lock for that resource.
        await this.locker.withWriteLock({ path: iri }, async(): Promise<void> => {
          if (await this.store.exists(iri) || await this.store.exists(`${iri}/`)) {
            iri = `${container}${name}-${generatedName()}`;
          }
          await this.write(container, iri, body, type, now, fileType);
        });
      } else {
        await this.write(container, iri, body, type, now, fileType);
      }
    };
    const conditions = await conditionsOf(request);
    if (conditions) {
      // Checked and written under the container's lock, as CSS's POST: no write of CSS's (a PUT or
      // PATCH of the container's metadata, its DELETE) comes between the check and the write.
      await this.locker.withWriteLock({ path: container }, async(): Promise<void> => {
        // As CSS's DataAccessorBasedStore.addResource: the container's metadata, its ETag's date compared.
        checkConditions(conditions, container, await this.store.readMetadata(container), 'created');
        await create();
      });
    } else {
      await create();
    }
    if (note) {
      // A browser goes back to the container's page, which lists the new note.
      response.writeHead(303, { location: container, 'content-length': '0' });
      response.end();
      return;
    }
    response.writeHead(201, {
      location: iri,
      link: ldpHeaders(this.paths.storageOf(iri), iri, 'rdf', operation.access.headers).link as string[],
      'content-length': '0',
    });
    response.end();
  }

  /** The body as triples or as a file, decided as for every other write (RdfOrFileConverter). */
  private async write(container: string, iri: string, body: Buffer, type: string, now: Date, fileType: string): Promise<void> {
    const stored = await this.converter.handleSafe({ identifier: { path: iri },
      representation: new BasicRepresentation([ body ], type), preferences: { type: { [INTERNAL_QUADS]: 1 }}});
    const metadata = documentMetadata(iri, now);
    if (stored.metadata.contentType === INTERNAL_QUADS) {
      // The prefixes are noted as the stream is read, so read it first.
      const quads = defaultGraphOnly(await arrayifyStream<Quad>(stored.data));
      const prefixes = prefixMetadata(iri, notedPrefixes(stored.metadata.quads()));
      await this.store.createInContainer(container, iri, quads, [ ...metadata, ...prefixes ], now);
      return;
    }
    await this.files.saveDescribed(stored.data, async(saved): Promise<void> =>
      this.store.createInContainer(container, iri, [], [ ...metadata, ...fileMetadata(iri, saved, fileType) ], now));
  }

  private async findContainer(iri: string): Promise<string> {
    if (iri.endsWith('/')) {
      if (await this.store.exists(iri)) {
        return iri;
      }
      throw notFound(`No container at ${iri}`);
    }
    // `POST /notes` targets the container `/notes/`, without a redirect.
    if (await this.store.exists(`${iri}/`)) {
      return `${iri}/`;
    }
    if (await this.store.exists(iri)) {
      throw methodNotAllowed(`${iri} is not a container: POST creates resources in containers only.`, 'OPTIONS, HEAD, GET, PATCH, PUT, DELETE');
    }
    throw notFound(`No container at ${iri}`);
  }
}
