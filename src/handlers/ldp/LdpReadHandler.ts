import { NOT_HANDLED } from '../http/NotHandled';
import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { AudienceRules } from '../../plugins/activitypub/AudienceRules';
import { HIDDEN_PREDICATES } from '../../plugins/activitypub/AudienceRules';
import { ContainerPageCache } from '../../plugins/ldp/ContainerPageCache';
import type { JsonObject } from '../../plugins/ldp/Contexts';
import type { RdfSerializer } from '../../plugins/ldp/RdfSerializer';
import { JSON_LD, N_TRIPLES, TURTLE } from '../../plugins/ldp/RdfSerializer';
import type { ContainerPage, ResourceGraphs, StoredResource } from '../../storage/ResourceGraphs';
import type { ResourceFiles } from '../../storage/ResourceFiles';
import { fileNameOf } from '../../storage/ResourceFiles';
import { prefixesOf } from '../../storage/DocumentPrefixes';
import { DC_MODIFIED, MA_FORMAT, PIM_STORAGE, POSIX_SIZE, LDP_CONTAINS, RDF_TYPE } from '../../storage/StoreVocabulary';
import { badRequest, FedpodHttpError, notFound } from '../../util/HttpErrors';
import { escapeHtml } from '../http/Html';
import { InvalidCursorError } from '../../storage/InvalidCursorError';
import { rdfaQuads, RDFA_TYPES } from '../../plugins/ldp/HtmlRdfa';
import type { UserStorageLocationStrategy } from '../../plugins/ldp/UserStorageLocationStrategy';
import { bareMediaType } from '../../util/ContentTypes';
import { negotiate, sendStream } from '../http/HttpUtil';
import { prefersHtml } from '../http/BrowserAccept';
import { renderPage } from '../http/PageLayout';
import { containerListing, nameOf, parentsOf, readerMayAppend } from '../html/ContainerListing';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { agentIri } from '../http/Agent';
import type { OperationInput } from '../http/Operation';
import { CONTAINER_TYPES, eTagFor, isNotModified, ldpHeaders, modifiedOf, notModified } from './LdpHeaders';
import { LdpPaths } from './LdpPaths';

const { namedNode, quad } = DataFactory;

/** LDP resources: Turtle to a client that takes anything (as CSS answers, and as Solid clients expect). */
const OFFERED = [ TURTLE, JSON_LD, N_TRIPLES, 'application/activity+json', 'application/json' ];
/** ActivityPub containers: JSON-LD first, what fediverse software and browsers read. */
const OFFERED_AUDIENCE = [ JSON_LD, TURTLE, N_TRIPLES, 'application/activity+json', 'application/json' ];
const JSON_TYPES = new Set([ JSON_LD, 'application/activity+json', 'application/json' ]);

/**
 * What a listing shows of a member: the triples about the member itself (and its blank nodes), so a
 * listing names its members, never other subjects a member's data mentions (`#fragments`, the
 * container). Child containers show their type only, not their own members.
 */
function embeddedData(member: ContainerPage['members'][number]): Quad[] {
  if (member.iri.endsWith('/')) {
    return [];
  }
  return member.data.filter((entry): boolean => entry.subject.value === member.iri || entry.subject.termType === 'BlankNode');
}

/** What the handler reads with (an options object: more than six settings). */
export interface LdpReadHandlerOptions {
  /** Public base URL. */
  baseUrl: string;
  /** Where users have storages of their own (the storage description each resource names). */
  storages?: UserStorageLocationStrategy;
  /** The resource graphs. */
  store: ResourceGraphs;
  /** RDF serialiser. */
  serializer: RdfSerializer;
  /** The bytes of non-RDF resources. */
  files: ResourceFiles;
  /** Members per container page (default 500). */
  pageSize?: number;
  /** Container pages kept for revalidation by modification date (0: none; default 512). */
  cachedPages?: number;
  /** Audience rules that filter what is served (ActivityPub containers). */
  audience?: AudienceRules;
}

interface Body {
  contentType: string;
  text: string;
  modified?: Date;
  isContainer: boolean;
  /** The RDF of a file (an HTML page's RDFa): typed as the non-RDF source it is. */
  isFile?: boolean;
  /** A storage root (pim:Storage). */
  isStorage?: boolean;
  next?: string;
}

/**
 * GET and HEAD of LDP resources and containers, straight from the store in one query each.
 *
 * CSS's generic pipeline spends most of a request on authorization reads, converter searches and
 * metadata bookkeeping; this handler serves the common reads (JSON-LD, Turtle, N-Triples) directly
 * and leaves everything else to CSS by refusing in canHandle: other media types, Prefer, Range,
 * If-Match / If-Unmodified-Since, auxiliary resources. Container listings embed their members
 * and are paged (`?after=`, Link rel="next"); a browser gets the same page of a container as links.
 *
 * With `audience` (the ActivityPub containers /objects/ and /activities/, which hold every actor's
 * posts) it is the only reader of its route: bto and bcc are never served, a listing shows only the
 * members the reader may read (a page may then hold fewer than `pageSize`), and browsers get JSON-LD
 * for a resource (its page is the post page's).
 */
export class LdpReadHandler extends JsonHttpHandler {
  private readonly paths: LdpPaths;
  private readonly pages: ContainerPageCache<Body>;
  private readonly store: ResourceGraphs;
  private readonly serializer: RdfSerializer;
  private readonly files: ResourceFiles;
  private readonly pageSize: number;
  private readonly audience?: AudienceRules;
  private readonly offered: string[];

  public constructor(options: LdpReadHandlerOptions) {
    super();
    this.paths = new LdpPaths(options.baseUrl, options.storages);
    this.pages = new ContainerPageCache<Body>(options.cachedPages ?? 512);
    this.store = options.store;
    this.serializer = options.serializer;
    this.files = options.files;
    this.pageSize = options.pageSize ?? 500;
    this.audience = options.audience;
    this.offered = this.audience ? OFFERED_AUDIENCE : OFFERED;
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw NOT_HANDLED;
    }
    const headers = request.headers;
    const lenient = this.audience !== undefined;
    if (!lenient && (headers.prefer || headers.range || headers['if-match'] || headers['if-unmodified-since'])) {
      throw NOT_HANDLED;
    }
    const target = this.paths.resolve(operation.target);
    if (!target || this.paths.isReservedPath(target.path)) {
      throw NOT_HANDLED;
    }
    if (target.iri.endsWith('/') && prefersHtml(request)) {
      // A browser's page of a container, paged like the data: CSS's listing would read every member.
      return;
    }
    const chosen = negotiate(headers.accept, this.offered);
    if (!chosen || (!lenient && chosen.wildcard && (headers.accept ?? '').includes('text/html'))) {
      throw NOT_HANDLED;
    }
  }

  protected async serve(input: OperationInput): Promise<void> {
    const { request, response, operation } = input;
    const target = this.paths.resolve(operation.target)!;
    if (target.iri.endsWith('/') && prefersHtml(request)) {
      await this.sendContainerPage(input, target.iri, target.query.get('after') ?? undefined);
      return;
    }
    const chosen = negotiate(request.headers.accept, this.offered)!;
    const contentType = chosen.type;
    const reader = this.audience ? agentIri(await operation.resolveAgent()) : undefined;
    let body: Body | undefined;
    if (target.iri.endsWith('/')) {
      body = await this.container(target.iri, contentType, reader, target.query.get('after') ?? undefined);
    } else {
      const stored = operation.prefetched(target.iri) ?? await this.store.read(target.iri);
      const file = stored && fileNameOf(stored.metadata);
      if (file) {
        const rdfType = this.rdfOfFile(request.headers.accept, target.iri, stored);
        if (!rdfType) {
          await this.sendFile(input, target.iri, stored, file);
          return;
        }
        const quads = await rdfaQuads(this.files.open(file), target.iri, bareMediaType(fileTypeOf(stored, target.iri)));
        body = { contentType: rdfType, text: await this.serialize(quads, target.iri, rdfType),
          modified: modifiedOf(stored.metadata, target.iri), isContainer: false, isFile: true };
      } else {
        body = stored && await this.resource(target.iri, contentType, stored);
      }
    }
    if (!body && !target.iri.endsWith('/')) {
      // `/notes` answers as the container `/notes/` without a redirect.
      body = await this.container(`${target.iri}/`, contentType, reader, target.query.get('after') ?? undefined);
    }
    if (!body) {
      throw notFound(`No resource at ${target.iri}`);
    }
    const eTag = eTagFor(body.modified, body.contentType);
    const kind = body.isContainer ? 'container' : body.isFile ? 'file' : 'rdf';
    const headers: Record<string, string | string[]> = {
      ...ldpHeaders(this.paths.storageOf(target.iri), target.iri, kind, operation.access.headers),
      // No charset: JSON and JSON-LD define none (they are UTF-8), and CSS sends none.
      'content-type': body.contentType,
    };
    if (eTag) {
      headers.etag = eTag;
      headers['last-modified'] = body.modified!.toUTCString();
    }
    if (body.next) {
      (headers.link as string[]).push(`<${body.next}>; rel="next"`);
    }
    if (body.isStorage) {
      (headers.link as string[]).unshift(`<${PIM_STORAGE}>; rel="type"`);
    }
    if (eTag && isNotModified(request.headers['if-none-match'], request.headers['if-modified-since'], eTag, body.modified!)) {
      notModified(response, eTag);
      return;
    }
    headers['content-length'] = String(Buffer.byteLength(body.text));
    response.writeHead(200, headers);
    response.end(request.method === 'HEAD' ? undefined : body.text);
  }

  /**
   * The RDF type to answer a file with, when the client asks for RDF and the file is an HTML page
   * (its RDFa); undefined to serve the file itself; a 406 when the client takes neither.
   */
  private rdfOfFile(accept: string | undefined, iri: string, stored: StoredResource): string | undefined {
    const mediaType = bareMediaType(fileTypeOf(stored, iri));
    if (negotiate(accept, [ mediaType ])) {
      return undefined;
    }
    const asRdf = RDFA_TYPES.has(mediaType) && negotiate(accept, this.offered);
    if (!asRdf) {
      throw new FedpodHttpError(406, 'not_acceptable', `${iri} is a ${mediaType} file.`);
    }
    return asRdf.type;
  }

  /**
   * A non-RDF resource, streamed from its file. Ranges and preconditions other than If-None-Match and
   * If-Modified-Since never reach this handler (CSS serves them).
   */
  private sendFile({ request, response, operation }: OperationInput, iri: string, stored: StoredResource, file: string): void {
    const contentType = fileTypeOf(stored, iri);
    const modified = modifiedOf(stored.metadata, iri);
    const eTag = eTagFor(modified, contentType);
    const headers: Record<string, string | string[]> = {
      ...ldpHeaders(this.paths.storageOf(iri), iri, 'file', operation.access.headers),
      'content-type': contentType,
      'accept-ranges': 'bytes',
    };
    if (eTag) {
      headers.etag = eTag;
      headers['last-modified'] = modified!.toUTCString();
      if (isNotModified(request.headers['if-none-match'], request.headers['if-modified-since'], eTag, modified!)) {
        notModified(response, eTag);
        return;
      }
    }
    headers['content-length'] = metadataValue(stored, iri, POSIX_SIZE) ?? '0';
    response.writeHead(200, headers);
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    sendStream(response, this.files.open(file), (error): void => {
      this.logger.error(`Reading the file of ${iri}: ${error.message}`);
    });
  }

  private async resource(iri: string, contentType: string, stored: StoredResource): Promise<Body> {
    const modified = modifiedOf(stored.metadata, iri);
    const data = this.audience ? withoutHidden(stored.data) : stored.data;
    const text = await this.serialize(data, iri, contentType, prefixesOf(stored.metadata, iri));
    return { contentType, text, modified, isContainer: false };
  }

  /** `prefixes`: the document's own, for Turtle (see DocumentPrefixes). */
  private async serialize(quads: readonly Quad[], iri: string, contentType: string, prefixes?: Record<string, string>):
  Promise<string> {
    return JSON_TYPES.has(contentType) ?
      JSON.stringify(await this.serializer.toJsonLd(quads, iri)) :
      this.serializer.toText(quads, contentType, prefixes);
  }

  /** A container's page for a browser: the same page of members as the data, as links. */
  private async sendContainerPage({ request, response, operation }: OperationInput, iri: string, after: string | undefined):
  Promise<void> {
    const reader = this.audience ? agentIri(await operation.resolveAgent()) : undefined;
    const page = await this.readPage(iri, after);
    if (!page) {
      throw notFound(`No container at ${iri}`);
    }
    const members = this.audience ? await this.visibleMembers(page.members, reader) : page.members;
    const root = this.paths.storageOf(iri);
    const name = nameOf(iri, root);
    const html = renderPage(this.paths.baseUrl, name || '/', `<h1>${escapeHtml(name || '/')}</h1>

${containerListing({
    identifier: iri,
    name,
    parents: parentsOf(iri, root),
    members: members.map(({ iri: member }): { identifier: string; name: string; container: boolean } =>
      ({ identifier: member, name: nameOf(member, iri), container: member.endsWith('/') })),
    next: page.nextAfter ? `${iri}?after=${encodeURIComponent(page.nextAfter)}` : undefined,
    // The ActivityPub containers take posts through outboxes, not forms; no form for a reader who may not add.
    noteForm: !this.audience && readerMayAppend(operation.access.headers?.['wac-allow']),
  })}`);
    // An ETag as CSS gives the page, so a browser's revalidation gets a 304; not for a filtered page,
    // which also changes when the reader's audience does.
    const modified = modifiedOf(page.metadata, iri);
    const eTag = this.audience ? undefined : eTagFor(modified, 'text/html');
    if (eTag && isNotModified(request.headers['if-none-match'], request.headers['if-modified-since'], eTag, modified!)) {
      notModified(response, eTag);
      return;
    }
    // `text/html` without a charset, as CSS answers: the page declares it (`<meta charset>`).
    response.writeHead(200, { 'cache-control': 'no-cache',
      ...ldpHeaders(root, iri, 'container', operation.access.headers),
      ...eTag ? { etag: eTag, 'last-modified': modified!.toUTCString() } : {},
      'content-type': 'text/html', 'content-length': Buffer.byteLength(html) });
    response.end(request.method === 'HEAD' ? undefined : html);
  }

  private async readPage(iri: string, after: string | undefined): Promise<ContainerPage | undefined> {
    try {
      return await this.store.readContainerPage(iri, this.pageSize, after);
    } catch (error: unknown) {
      if (error instanceof InvalidCursorError) {
        throw badRequest('That page cursor is not valid: follow the container\'s Link rel="next".', 'invalid_cursor');
      }
      throw error;
    }
  }

  private async container(iri: string, contentType: string, reader: string | undefined, after?: string):
  Promise<Body | undefined> {
    // Filtered pages differ per reader: only the anonymous one is cached.
    const cacheable = !this.audience || reader === undefined;
    const key = `${contentType} ${iri} ${after ?? ''}`;
    const current = cacheable ? await this.store.readModified(iri) : undefined;
    const cached = current === undefined ? undefined : this.pages.get(key, current);
    if (cached) {
      return cached;
    }
    const page = await this.readPage(iri, after);
    if (!page) {
      return undefined;
    }
    if (this.audience) {
      page.members = await this.visibleMembers(page.members, reader);
    }
    const next = page.nextAfter ? `${iri}?after=${encodeURIComponent(page.nextAfter)}` : undefined;
    const text = JSON_TYPES.has(contentType) ?
      JSON.stringify(await this.containerJson(iri, page)) :
      await this.serializer.toText(this.containerQuads(iri, page), contentType);
    const isStorage = page.metadata.some((entry): boolean => entry.subject.value === iri &&
      entry.predicate.value === RDF_TYPE && entry.object.value === PIM_STORAGE);
    const body: Body = { contentType, text, modified: modifiedOf(page.metadata, iri), isContainer: true, isStorage, next };
    // Kept under the date read together with the page, so a write in between only causes a miss.
    const pageModified = page.metadata.find((entry): boolean =>
      entry.subject.value === iri && entry.predicate.value === DC_MODIFIED)?.object.value;
    if (pageModified !== undefined && cacheable) {
      this.pages.set(key, pageModified, body);
    }
    return body;
  }

  private async visibleMembers(members: ContainerPage['members'], reader: string | undefined): Promise<ContainerPage['members']> {
    const rules = this.audience!;
    const followers = new Map<string, Promise<boolean>>();
    const visible: ContainerPage['members'] = [];
    for (const member of members) {
      if (member.iri.endsWith('/') || await rules.mayRead(rules.addressingIn(member.iri, member.data), reader, followers)) {
        visible.push({ iri: member.iri, data: withoutHidden(member.data) });
      }
    }
    return visible;
  }

  private async containerJson(iri: string, page: ContainerPage): Promise<JsonObject> {
    const members: JsonObject[] = [];
    for (const member of page.members) {
      const own = embeddedData(member);
      if (member.iri.endsWith('/')) {
        members.push({ id: member.iri, type: CONTAINER_TYPES.map((type): string => this.serializer.compactIri(type)) });
      } else if (own.length > 0) {
        members.push(await this.serializer.compactNode(own, member.iri));
      } else {
        members.push({ id: member.iri });
      }
    }
    const types = page.metadata
      .filter((entry): boolean => entry.subject.value === iri && entry.predicate.value === RDF_TYPE)
      .map((entry): string => entry.object.value)
      .sort((a, b): number => CONTAINER_TYPES.indexOf(a) - CONTAINER_TYPES.indexOf(b))
      .map((type): string => this.serializer.compactIri(type));
    const modified = modifiedOf(page.metadata, iri);
    return {
      '@context': this.serializer.contextReference,
      id: iri,
      type: types,
      ...modified ? { 'dc:modified': { '@value': modified.toISOString(), '@type': 'xsd:dateTime' }} : {},
      'ldp:contains': members,
    };
  }

  private containerQuads(iri: string, page: ContainerPage): Quad[] {
    const quads: Quad[] = page.metadata.filter((entry): boolean => entry.subject.value === iri);
    for (const member of page.members) {
      quads.push(quad(namedNode(iri), namedNode(LDP_CONTAINS), namedNode(member.iri)), ...embeddedData(member));
      if (member.iri.endsWith('/')) {
        quads.push(...CONTAINER_TYPES.map((type): Quad =>
          quad(namedNode(member.iri), namedNode(RDF_TYPE), namedNode(type))));
      }
    }
    return quads;
  }
}

function withoutHidden(quads: Quad[]): Quad[] {
  return quads.filter((entry): boolean => !HIDDEN_PREDICATES.has(entry.predicate.value));
}

function metadataValue(stored: StoredResource, iri: string, predicate: string): string | undefined {
  return stored.metadata.find((entry): boolean => entry.subject.value === iri && entry.predicate.value === predicate)?.object.value;
}

/** The media type a file was stored with (`ma:format`). */
function fileTypeOf(stored: StoredResource, iri: string): string {
  return metadataValue(stored, iri, MA_FORMAT) ?? 'application/octet-stream';
}
