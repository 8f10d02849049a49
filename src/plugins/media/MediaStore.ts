import { Readable } from 'node:stream';
import type { Quad } from '@rdfjs/types';
import type { ResourceStore } from '@solid/community-server';
import { BasicRepresentation } from '@solid/community-server';
import { DataFactory } from 'n3';
import { v7 as uuidv7 } from 'uuid';
import type { ResourceFiles, SavedFile } from '../../storage/ResourceFiles';
import { fileMetadata, fileNameOf } from '../../storage/ResourceFiles';
import type { ResourceGraphStore } from '../../storage/ResourceGraphStore';
import type { ResourceWrite } from '../../storage/ResourceGraphs';
import { documentMetadata } from '../../storage/ResourceGraphs';
import { DC_MODIFIED, FEDPOD_NS, RDF_TYPE, XSD_DATETIME } from '../../storage/StoreVocabulary';
import { notFound, payloadTooLarge } from '../../util/HttpErrors';
import type { Json } from '../activitypub/ActivityJson';
import { ActorUrls } from '../activitypub/ActorUrls';
import { AS_NS } from '../activitypub/ActivityVocabulary';
import type { MediaKind, SniffedType } from './MediaProcessing';
import { processImage, sniffType, SNIFF_BYTES, unprocessableMedia } from './MediaProcessing';

const { literal, namedNode, quad } = DataFactory;

const TOOT_NS = 'http://joinmastodon.org/ns#';
const XSD_INTEGER = 'http://www.w3.org/2001/XMLSchema#integer';
const XSD_DOUBLE = 'http://www.w3.org/2001/XMLSchema#double';
const P = {
  type: RDF_TYPE,
  mediaType: `${AS_NS}mediaType`,
  url: `${AS_NS}url`,
  attributedTo: `${AS_NS}attributedTo`,
  published: `${AS_NS}published`,
  name: `${AS_NS}name`,
  width: `${AS_NS}width`,
  height: `${AS_NS}height`,
  blurhash: `${TOOT_NS}blurhash`,
  size: `${FEDPOD_NS}mediaSize`,
  preview: `${FEDPOD_NS}preview`,
  previewWidth: `${FEDPOD_NS}previewWidth`,
  previewHeight: `${FEDPOD_NS}previewHeight`,
  focusX: `${FEDPOD_NS}focusX`,
  focusY: `${FEDPOD_NS}focusY`,
  attachedTo: `${FEDPOD_NS}attachedTo`,
};
/**
 * What a read of an upload's file or thumbnail needs of its description: which files are the
 * upload's, whose it is and the post it is attached to. Its text, sizes and blurhash are a third of
 * the rows the store would carry back, and every row costs the store's engine and the parser.
 */
const FILE_READ_PREDICATES: readonly string[] = [ P.type, P.url, P.attributedTo, P.preview, P.attachedTo ];
const KIND_TYPES: Record<MediaKind, string> = { image: 'Image', video: 'Video', audio: 'Audio' };
/** An upload's id: a UUID (v7), as minted here. */
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/u;

/** Size limits of uploads, per kind, in bytes. */
export interface MediaLimits {
  image: number;
  video: number;
  audio: number;
}

export interface MediaStoreOptions {
  baseUrl: string;
  /** Fedpod's resource graphs: the uploads' descriptions and their files' metadata. */
  graphs: ResourceGraphStore;
  /** The bytes of the stored files. */
  files: ResourceFiles;
  /** CSS's resource store: makes a user's media container the first time. */
  resources: ResourceStore;
  /** Where the users' storages are, relative to the base URL (UserStorage's; default `pods/`). */
  storagePath?: string;
  /** Largest image upload in bytes (Mastodon's: 16 MB). */
  maxImageBytes?: number;
  /** Largest video upload in bytes (Mastodon's: 99 MB). */
  maxVideoBytes?: number;
  /** Largest audio upload in bytes (Mastodon's: 99 MB). */
  maxAudioBytes?: number;
  /** Most pixels an image may have (default 8192 × 8192). */
  maxPixels?: number;
  /** Width and height the thumbnails fit in (default 400). */
  thumbnailSize?: number;
}

/** A focal point, each coordinate from -1 to 1 (Mastodon's). */
export interface Focus {
  x: number;
  y: number;
}

/** An upload, as its description in the uploader's storage says. */
export interface MediaRecord {
  id: string;
  /** Its description's IRI: `{storage}media/<id>`. */
  iri: string;
  /** The uploader's actor. */
  owner: string;
  kind: MediaKind;
  mediaType: string;
  url: string;
  size: number;
  published: string;
  width?: number;
  height?: number;
  previewUrl?: string;
  previewWidth?: number;
  previewHeight?: number;
  blurhash?: string;
  description?: string;
  focus?: Focus;
  /** The post it is attached to, once it is. */
  attachedTo?: string;
}

/** Where an upload's file is among the stored files, its type and size. */
export interface StoredMediaFile {
  name: string;
  type: string;
  size: number;
  /** When it was written (its ETag); none when its metadata has no date. */
  modified?: Date;
}

/** An upload as recordOf finds it: its description, and the stored file when a file was asked for. */
export interface FoundMedia {
  record: MediaRecord;
  file?: StoredMediaFile;
}

/** What a client says of an upload besides its bytes. */
export interface MediaFields {
  description?: string;
  focus?: Focus;
}

/** An upload whose files are written and whose description is not yet: see MediaStore.receive. */
export interface ReceivedMedia {
  username: string;
  id: string;
  type: SniffedType;
  saved: SavedFile;
  size: number;
  small?: { saved: SavedFile; type: string; width: number; height: number };
  width?: number;
  height?: number;
  blurhash?: string;
}

const DEFAULT_LIMITS: MediaLimits = { image: 16 * 1024 * 1024, video: 99 * 1024 * 1024, audio: 99 * 1024 * 1024 };

/**
 * Uploaded media, stored in the uploader's storage (`{base}pods/<user>/media/`) as LDP resources
 * any Solid client of theirs lists: the file as sent or re-encoded (`<id>.<ext>`), an image's
 * thumbnail (`<id>-small.jpg`) and a description (`<id>`, RDF: type, size, width, height, blurhash,
 * description, focal point, the post it is attached to). The type is sniffed from the bytes;
 * images are decoded and encoded again (no EXIF, no location: see processImage); video and audio
 * are kept as sent. The body is counted as it arrives and never held past its kind's limit.
 */
export class MediaStore {
  public readonly limits: MediaLimits;
  private readonly urls: ActorUrls;
  private readonly maxPixels: number;
  private readonly thumbnailSize: number;
  private readonly containers = new Set<string>();
  private readonly storages: string;

  public constructor(private readonly options: MediaStoreOptions) {
    this.limits = {
      image: options.maxImageBytes ?? DEFAULT_LIMITS.image,
      video: options.maxVideoBytes ?? DEFAULT_LIMITS.video,
      audio: options.maxAudioBytes ?? DEFAULT_LIMITS.audio,
    };
    this.urls = new ActorUrls(options.baseUrl);
    this.maxPixels = options.maxPixels ?? 8192 * 8192;
    this.thumbnailSize = options.thumbnailSize ?? 400;
    const path = options.storagePath ?? 'pods/';
    this.storages = new URL(path.endsWith('/') ? path : `${path}/`, this.urls.base).href;
  }

  /** The largest upload of any kind: what a body may bring at most. */
  public get maxBytes(): number {
    return Math.max(this.limits.image, this.limits.video, this.limits.audio);
  }

  /** The container of a user's uploads. */
  public containerOf(username: string): string {
    return `${this.storages}${encodeURIComponent(username)}/media/`;
  }

  /**
   * Reads an upload's bytes and writes its files (not yet named by any description): the type
   * from its first bytes, 422 when it is not one accepted, or not `declaredType`'s kind when the
   * client declared one, 413 past its kind's limit; an image is re-encoded with its thumbnail and
   * blurhash. On any refusal nothing stays written. `commit` then describes it.
   */
  public async receive(username: string, body: Readable, declaredType?: string): Promise<ReceivedMedia> {
    const { head, rest } = await readHead(body);
    const type = sniffType(head);
    if (!type) {
      throw unprocessableMedia('This type of file is not accepted: images (JPEG, PNG, GIF, WebP, AVIF), video (MP4, WebM, QuickTime) and audio (MP3, Ogg, WAV, FLAC, M4A) are.');
    }
    const declaredKind = declaredType?.split('/')[0];
    if (declaredKind !== undefined && declaredType !== 'application/octet-stream' && declaredKind !== type.kind &&
      !(type.mediaType === 'video/webm' && declaredKind === 'audio')) {
      throw unprocessableMedia(`The file is declared as ${declaredType}, but its bytes are ${type.mediaType}.`);
    }
    const limit = this.limits[type.kind];
    const id = uuidv7();
    if (type.kind !== 'image') {
      const saved = await this.options.files.save(Readable.from(boundedChunks(head, rest, limit)));
      return { username, id, type, saved, size: saved.size };
    }
    const input = await collect(head, rest, limit);
    const image = await processImage(input, type, { maxPixels: this.maxPixels, thumbnailSize: this.thumbnailSize });
    // Both files at once: each waits for its own fsync.
    const [ saved, small ] = await Promise.allSettled([
      this.options.files.save(Readable.from([ image.original ])),
      this.options.files.save(Readable.from([ image.small ])),
    ]);
    if (saved.status === 'rejected' || small.status === 'rejected') {
      await Promise.all([ saved, small ].map(async(result): Promise<void> =>
        result.status === 'fulfilled' ? this.options.files.remove(result.value.name) : undefined));
      throw saved.status === 'rejected' ? saved.reason : (small as PromiseRejectedResult).reason;
    }
    return {
      username,
      id,
      type,
      saved: saved.value,
      size: saved.value.size,
      small: { saved: small.value, type: image.smallType, width: image.smallWidth, height: image.smallHeight },
      width: image.width,
      height: image.height,
      blurhash: image.blurhash,
    };
  }

  /** Drops what receive wrote, for an upload refused after it (a bad field). */
  public async discard(received: ReceivedMedia): Promise<void> {
    await this.options.files.remove(received.saved.name);
    if (received.small) {
      await this.options.files.remove(received.small.saved.name);
    }
  }

  /**
   * Describes received files in one store update (the files, the description, their
   * containment): only then is the upload there; when it fails the files are removed.
   */
  public async commit(received: ReceivedMedia, fields: MediaFields): Promise<MediaRecord> {
    const { username, id, type } = received;
    const container = this.containerOf(username);
    const iri = `${container}${id}`;
    const record: MediaRecord = {
      id,
      iri,
      owner: this.urls.actor(username),
      kind: type.kind,
      mediaType: type.mediaType,
      url: `${iri}.${type.extension}`,
      size: received.size,
      published: new Date().toISOString(),
      width: received.width,
      height: received.height,
      blurhash: received.blurhash,
      ...received.small ? { previewUrl: `${iri}-small.jpg`, previewWidth: received.small.width, previewHeight: received.small.height } : {},
      ...fields,
    };
    const now = new Date();
    const writes: ResourceWrite[] = [
      { iri: record.url, parent: container, created: true,
        metadata: [ ...documentMetadata(record.url, now), ...fileMetadata(record.url, received.saved, type.mediaType) ]},
      ...received.small ?
        [{ iri: record.previewUrl!, parent: container, created: true,
          metadata: [ ...documentMetadata(record.previewUrl!, now), ...fileMetadata(record.previewUrl!, received.small.saved, received.small.type) ]}] :
        [],
      { iri, parent: container, created: true, metadata: documentMetadata(iri, now), data: recordQuads(record) },
    ];
    try {
      await this.ensureContainer(container);
      await this.options.graphs.writeMany(writes);
    } catch (error: unknown) {
      await this.discard(received);
      throw error;
    }
    return record;
  }

  /** The user's upload with this id; undefined when there is none. */
  public async get(username: string, id: string): Promise<MediaRecord | undefined> {
    if (!ID.test(id)) {
      return undefined;
    }
    return this.read(`${this.containerOf(username)}${id}`);
  }

  /**
   * The upload a description's IRI names, or one of its files (`<id>.<ext>`, `<id>-small.jpg`)
   * does, with that file's stored bytes (name, type, size) when `iri` is a file: both in one query.
   */
  public async recordOf(iri: string, brief = false): Promise<FoundMedia | undefined> {
    return (await this.recordWith(iri, undefined, undefined, brief))?.found;
  }

  /**
   * As recordOf, and the data of `other` (e.g. the post the upload is attached to; with `predicates`,
   * only those of its own subject) read in the same query: a reader's check then costs one round trip
   * to the store, not two in turn. `brief`, for serving a file or thumbnail: its record holds only
   * the upload's kind, files, owner and post (FILE_READ_PREDICATES); a description's IRI is always read whole.
   */
  public async recordWith(iri: string, other: string | undefined, predicates?: readonly string[], brief = false):
  Promise<{ found: FoundMedia; other: Quad[] } | undefined> {
    const description = this.descriptionOf(iri);
    if (description === undefined) {
      return undefined;
    }
    const only = new Map<string, readonly string[]>();
    if (other !== undefined && predicates !== undefined) {
      only.set(other, predicates);
    }
    if (brief && iri !== description) {
      only.set(description, FILE_READ_PREDICATES);
    }
    const { data, metadata } = await this.options.graphs.readDataAndMetadata(
      other === undefined ? [ description ] : [ description, other ], iri === description ? [] : [ iri ], only,
    );
    const own = data.get(description);
    const record = own ? recordFromQuads(description, own) : undefined;
    const file = iri === description ? undefined : fileIn(iri, metadata.get(iri) ?? []);
    // Only the record's own files: not another file of that name someone wrote there by LDP.
    if (!record || ![ record.iri, record.url, record.previewUrl ].includes(iri) || (iri !== description && !file)) {
      return undefined;
    }
    return { found: { record, file }, other: other === undefined ? [] : data.get(other) ?? [] };
  }

  /** The description IRI of an upload's description or file IRI; undefined for anything else. */
  public descriptionOf(iri: string): string | undefined {
    const match = /^(.*\/media\/)([0-9a-f-]{36})(?:-small)?(?:\.[a-z0-9]+)?$/u.exec(iri);
    return match && ID.test(match[2]) ? `${match[1]}${match[2]}` : undefined;
  }

  /** Changes an upload's description or focal point; 404 for none of the user's. */
  public async update(username: string, id: string, fields: MediaFields): Promise<MediaRecord> {
    const record = await this.get(username, id);
    if (!record) {
      throw notFound('Record not found', 'record_not_found');
    }
    const updated = { ...record, ...fields };
    await this.options.graphs.write(record.iri, this.containerOf(username), documentMetadata(record.iri, new Date()), recordQuads(updated));
    return updated;
  }

  /**
   * The user's uploads by id, for a new post: each must be theirs and not attached to another post
   * (Mastodon's rule), else 422 and nothing changes.
   */
  public async forPost(username: string, ids: readonly string[]): Promise<MediaRecord[]> {
    const records: MediaRecord[] = [];
    for (const id of ids) {
      const record = await this.get(username, String(id));
      if (!record || record.attachedTo !== undefined) {
        throw unprocessableMedia(`Validation failed: Media ${String(id)} is not an unattached upload of yours.`);
      }
      records.push(record);
    }
    return records;
  }

  /** Marks uploads attached to a post: from then on its audience reads them. */
  public async attach(records: readonly MediaRecord[], post: string): Promise<void> {
    if (records.length === 0) {
      return;
    }
    await this.options.graphs.writeMany(records.map((record): ResourceWrite => ({
      iri: record.iri,
      parent: record.iri.slice(0, record.iri.lastIndexOf('/') + 1),
      metadata: documentMetadata(record.iri, new Date()),
      data: recordQuads({ ...record, attachedTo: post }),
    })));
  }

  /** The bytes of a stored file. */
  public open(name: string): Readable {
    return this.options.files.open(name);
  }

  private async read(iri: string): Promise<MediaRecord | undefined> {
    const data = await this.options.graphs.readData(iri);
    return data.length === 0 ? undefined : recordFromQuads(iri, data);
  }

  private async ensureContainer(container: string): Promise<void> {
    if (this.containers.has(container)) {
      return;
    }
    if (!await this.options.graphs.exists(container)) {
      // Through CSS's store, as any LDP container is made, so Solid clients see a usual container.
      await this.options.resources.setRepresentation({ path: container }, new BasicRepresentation([], { path: container }));
    }
    this.containers.add(container);
  }
}

/** An upload as an ActivityStreams attachment (what a post carries and other servers read). */
export function attachmentOf(record: MediaRecord): Json {
  return {
    type: KIND_TYPES[record.kind] === 'Image' ? 'Image' : 'Document',
    mediaType: record.mediaType,
    url: record.url,
    name: record.description ?? null,
    ...record.blurhash ? { blurhash: record.blurhash } : {},
    ...record.width ? { width: record.width, height: record.height } : {},
    ...record.focus ? { focalPoint: [ record.focus.x, record.focus.y ] } : {},
    ...record.previewUrl ? { icon: { type: 'Image', mediaType: 'image/jpeg', url: record.previewUrl,
      width: record.previewWidth, height: record.previewHeight }} : {},
  };
}

function recordQuads(record: MediaRecord): Quad[] {
  const subject = namedNode(record.iri);
  const add = (predicate: string, object: Quad['object'] | undefined): Quad[] =>
    object ? [ quad(subject, namedNode(predicate), object) ] : [];
  const integer = (value: number | undefined): Quad['object'] | undefined =>
    value === undefined ? undefined : literal(String(value), namedNode(XSD_INTEGER));
  const double = (value: number | undefined): Quad['object'] | undefined =>
    value === undefined ? undefined : literal(String(value), namedNode(XSD_DOUBLE));
  return [
    ...add(P.type, namedNode(`${AS_NS}${KIND_TYPES[record.kind]}`)),
    ...add(P.mediaType, literal(record.mediaType)),
    ...add(P.url, namedNode(record.url)),
    ...add(P.attributedTo, namedNode(record.owner)),
    ...add(P.published, literal(record.published, namedNode(XSD_DATETIME))),
    ...add(P.size, integer(record.size)),
    ...add(P.width, integer(record.width)),
    ...add(P.height, integer(record.height)),
    ...add(P.blurhash, record.blurhash ? literal(record.blurhash) : undefined),
    ...add(P.name, record.description ? literal(record.description) : undefined),
    ...add(P.preview, record.previewUrl ? namedNode(record.previewUrl) : undefined),
    ...add(P.previewWidth, integer(record.previewWidth)),
    ...add(P.previewHeight, integer(record.previewHeight)),
    ...add(P.focusX, double(record.focus?.x)),
    ...add(P.focusY, double(record.focus?.y)),
    ...add(P.attachedTo, record.attachedTo ? namedNode(record.attachedTo) : undefined),
  ];
}

/** The stored file of an upload's file resource (itself or its thumbnail), by its metadata: name, type and size. */
function fileIn(iri: string, metadata: readonly Quad[]): StoredMediaFile | undefined {
  const name = fileNameOf(metadata);
  if (!name) {
    return undefined;
  }
  const value = (predicate: string): string | undefined =>
    metadata.find((entry): boolean => entry.subject.value === iri && entry.predicate.value === predicate)?.object.value;
  const modified = value(DC_MODIFIED);
  return { name, type: value('http://www.w3.org/ns/ma-ont#format') ?? 'application/octet-stream',
    size: Number(value('http://www.w3.org/ns/posix/stat#size') ?? 0),
    ...modified !== undefined && Number.isFinite(Date.parse(modified)) ? { modified: new Date(modified) } : {} };
}

function recordFromQuads(iri: string, quads: readonly Quad[]): MediaRecord | undefined {
  const value = (predicate: string): string | undefined =>
    quads.find((entry): boolean => entry.subject.value === iri && entry.predicate.value === predicate)?.object.value;
  const number = (predicate: string): number | undefined => {
    const found = value(predicate);
    return found === undefined ? undefined : Number(found);
  };
  const type = value(P.type)?.slice(AS_NS.length);
  const kind = (Object.keys(KIND_TYPES) as MediaKind[]).find((candidate): boolean => KIND_TYPES[candidate] === type);
  const url = value(P.url);
  const owner = value(P.attributedTo);
  if (!kind || !url || !owner) {
    return undefined;
  }
  const focusX = number(P.focusX);
  const focusY = number(P.focusY);
  return {
    id: iri.slice(iri.lastIndexOf('/') + 1),
    iri,
    owner,
    kind,
    mediaType: value(P.mediaType) ?? 'application/octet-stream',
    url,
    size: number(P.size) ?? 0,
    published: value(P.published) ?? '',
    width: number(P.width),
    height: number(P.height),
    previewUrl: value(P.preview),
    previewWidth: number(P.previewWidth),
    previewHeight: number(P.previewHeight),
    blurhash: value(P.blurhash),
    description: value(P.name),
    focus: focusX === undefined || focusY === undefined ? undefined : { x: focusX, y: focusY },
    attachedTo: value(P.attachedTo),
  };
}

/** The first SNIFF_BYTES bytes (fewer when the body is shorter), and the rest of the stream. */
async function readHead(body: Readable): Promise<{ head: Buffer; rest: Readable }> {
  const chunks: Buffer[] = [];
  let size = 0;
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  while (size < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      break;
    }
    chunks.push(next.value);
    size += next.value.length;
  }
  const head = Buffer.concat(chunks);
  // The iterator has the stream now: the rest is read through it.
  const rest = Readable.from({ [Symbol.asyncIterator]: (): AsyncIterator<Buffer> => iterator });
  return { head, rest };
}

/** The whole body as one buffer, 413 past `limit` (nothing more is kept). */
async function collect(head: Buffer, rest: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of boundedChunks(head, rest, limit)) {
    chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks, size);
}

/** The body's chunks, head first; 413 as soon as they pass `limit` (whoever reads the body drops the rest). */
async function* boundedChunks(head: Buffer, rest: Readable, limit: number): AsyncGenerator<Buffer> {
  let size = head.length;
  if (size > limit) {
    throw tooLarge(limit);
  }
  yield head;
  for await (const chunk of rest as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      throw tooLarge(limit);
    }
    yield chunk;
  }
}

function tooLarge(limit: number): Error {
  return payloadTooLarge(`The file is larger than the limit of ${limit} bytes for its type.`);
}
