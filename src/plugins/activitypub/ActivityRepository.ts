import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'n3';
import { documentMetadata, type ResourceGraphs, type ResourceWrite, type StoredResource } from '../../storage/ResourceGraphs';
import { RDF_TYPE } from '../../storage/StoreVocabulary';
import type { JsonLdParser } from '../ldp/JsonLdParser';
import type { Json } from './ActivityJson';
import { idOf, isObject } from './ActivityJson';
import type { ActivityStreamsSerializer } from './ActivityStreamsSerializer';

const { namedNode, literal, quad } = DataFactory;
const AS_NS = 'https://www.w3.org/ns/activitystreams#';
const XSD_BOOLEAN = 'http://www.w3.org/2001/XMLSchema#boolean';
const EMBEDDING = new Set([ 'Create', 'Update', 'Accept', 'Reject', 'Undo' ]);
/** Documents from other servers: unknown contexts read as empty, fediverse terms as Mastodon means them. */
const REMOTE = { lenient: true, fediverse: true };
/** Metadata of a remote activity stored while its side effects have not all run yet. */
const SIDE_EFFECTS_PENDING = 'urn:fedpod:ns:sideEffectsPending';

/** Where a remote activity stands: never seen, stored with side effects not (all) done, or done. */
export type ReceivedState = 'absent' | 'pending' | 'done';

/**
 * Activities and objects as ActivityStreams JSON, over the resource graphs: local ones live in
 * /activities/ and /objects/ (written by the outbox); remote ones received in an inbox are kept in a
 * graph named by their own id, outside every container.
 */
export class ActivityRepository {
  public constructor(
    private readonly store: ResourceGraphs,
    private readonly parser: JsonLdParser,
    private readonly serializer: ActivityStreamsSerializer,
  ) {}

  /**
   * The activity (or object) as ActivityStreams JSON. The object of a Create, Update, Accept, Reject
   * or Undo is embedded (one level: peers expect the Note, or the Follow being answered), when it is
   * stored here too; other objects (actors of a Follow, the target of a Like) stay references.
   * `prefetched`: the resource as already read in this request (its access check read it);
   * `readAlready`: what was read already of the object to embed, when it was (a timeline page's resources).
   */
  public async read(iri: string, prefetched?: StoredResource, readAlready?: (object: string) => StoredResource | undefined):
  Promise<Json | undefined> {
    const stored = prefetched ?? await this.store.read(iri);
    if (!stored) {
      return undefined;
    }
    const objectIri = this.embeddedObjectOf(iri, stored.data);
    const objectData = objectIri ? readAlready?.(objectIri)?.data ?? await this.store.readData(objectIri) : undefined;
    return this.toJson(iri, stored.data, objectData);
  }

  /**
   * Several activities at once, each as read() gives it (a collection page's items), in two store
   * queries whatever their number: one for the activities, one for the objects they embed. An IRI
   * with nothing stored is absent from the map.
   */
  public async readMany(iris: readonly string[]): Promise<Map<string, Json>> {
    const data = await this.store.readDataMany(iris);
    const objectOf = new Map<string, string>();
    for (const [ iri, quads ] of data) {
      const objectIri = this.embeddedObjectOf(iri, quads);
      if (objectIri) {
        objectOf.set(iri, objectIri);
      }
    }
    const objects = await this.store.readDataMany([ ...new Set(objectOf.values()) ]
      .filter((objectIri): boolean => !data.has(objectIri)));
    const documents = new Map<string, Json>();
    for (const [ iri, quads ] of data) {
      const objectIri = objectOf.get(iri);
      documents.set(iri, await this.toJson(iri, quads, objectIri ? objects.get(objectIri) ?? data.get(objectIri) : undefined));
    }
    return documents;
  }

  /** The object embedded in an activity's JSON: that of a Create, Update, Accept, Reject or Undo. */
  private embeddedObjectOf(iri: string, data: readonly Quad[]): string | undefined {
    const type = data.find((entry): boolean => entry.subject.value === iri && entry.predicate.value === RDF_TYPE)
      ?.object.value.replace(AS_NS, '');
    const objectIri = data.find((entry): boolean => entry.subject.value === iri &&
      entry.predicate.value === `${AS_NS}object` && entry.object.termType === 'NamedNode')?.object.value;
    return objectIri && objectIri !== iri && EMBEDDING.has(type ?? '') ? objectIri : undefined;
  }

  private async toJson(iri: string, data: readonly Quad[], objectData: readonly Quad[] = []): Promise<Json> {
    const quads = new Map<string, Quad>();
    for (const entry of [ ...data, ...objectData ]) {
      // A literal's language is part of it: Mastodon's `content` and `contentMap` hold the same text.
      const language = entry.object.termType === 'Literal' ? entry.object.language : '';
      quads.set(`${entry.subject.value} ${entry.predicate.value} ${entry.object.termType}:${language}:${entry.object.value}`, entry);
    }
    return await this.serializer.toJson([ ...quads.values() ], iri) as Json;
  }

  public async exists(iri: string): Promise<boolean> {
    return this.store.exists(iri);
  }

  /** One query: whether a remote activity is stored, and whether its side effects are done (doneWrite). */
  public async receivedState(iri: string): Promise<ReceivedState> {
    const metadata = await this.store.readMetadata(iri);
    if (metadata.length === 0) {
      return 'absent';
    }
    return metadata.some((entry): boolean => entry.predicate.value === SIDE_EFFECTS_PENDING) ? 'pending' : 'done';
  }

  /**
   * The write that records that a remote activity stored pending (remoteWrites) has had all its side
   * effects: its metadata without the mark.
   */
  public doneWrite(iri: string, received: Date): ResourceWrite {
    return { iri, parent: undefined, metadata: documentMetadata(iri, received) };
  }

  /**
   * Keeps a remote activity as remoteWrites() gives it, in one store update with its object.
   */
  public async storeRemote(activity: Json, received: Date, keepObject: boolean, pending = true): Promise<void> {
    await this.store.writeMany(await this.remoteWrites(activity, received, keepObject, pending));
  }

  /**
   * The writes that keep a remote activity, marked pending until doneWrite() when `pending` (it has
   * side effects to run), with its object: to store together (storeRemote, or with its inbox entries,
   * Collections.addAll). Its embedded object is kept under the object's own id only when `keepObject`
   * says the sender may speak for it (Create and Update of its own objects); otherwise only the
   * reference is kept, so no delivery can overwrite another resource.
   */
  public async remoteWrites(activity: Json, received: Date, keepObject: boolean, pending: boolean): Promise<ResourceWrite[]> {
    const id = activity.id as string;
    const object = activity.object;
    const writes: ResourceWrite[] = [];
    if (keepObject && isObject(object) && idOf(object) && idOf(object) !== id) {
      const objectId = idOf(object)!;
      const objectData = await this.parser.toQuads({ '@context': activity['@context'], ...object }, objectId, REMOTE);
      writes.push({ iri: objectId, parent: undefined, metadata: documentMetadata(objectId, received), data: objectData });
    }
    const reference = isObject(object) && idOf(object) ? { ...activity, object: idOf(object) } : activity;
    const data = await this.parser.toQuads(reference, id, REMOTE);
    const marker = pending ? [ quad(namedNode(id), namedNode(SIDE_EFFECTS_PENDING), literal('true', namedNode(XSD_BOOLEAN))) ] : [];
    writes.push({ iri: id, parent: undefined, metadata: [ ...documentMetadata(id, received), ...marker ], data });
    return writes;
  }

  /**
   * Whether a version of this remote object newer than the given one is stored: deliveries are
   * retried and sent in parallel, so a Create, or an older Update, may arrive after a later Update,
   * and must not bring its older content back (as Mastodon ignores them). A version is the object's
   * `updated`, else its `published`; one without either is never older.
   */
  public async hasNewerObject(object: Json): Promise<boolean> {
    const id = idOf(object);
    const incoming = Date.parse(String(object.updated ?? object.published ?? ''));
    if (!id || Number.isNaN(incoming)) {
      return false;
    }
    const versions = new Set([ `${AS_NS}updated`, `${AS_NS}published` ]);
    return (await this.store.readData(id)).some((entry): boolean => entry.subject.value === id &&
      versions.has(entry.predicate.value) && Date.parse(entry.object.value) > incoming);
  }

  /** Replaces a remote object by a Tombstone (its owner deleted it). */
  public async tombstone(iri: string, deleted: Date): Promise<void> {
    if (!await this.store.exists(iri)) {
      return;
    }
    const data = await this.parser.toQuads({ '@context': 'https://www.w3.org/ns/activitystreams', id: iri, type: 'Tombstone',
      deleted: deleted.toISOString() }, iri, REMOTE);
    await this.store.write(iri, undefined, documentMetadata(iri, deleted), data);
  }

}
