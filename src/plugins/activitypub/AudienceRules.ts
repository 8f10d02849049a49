import type { Quad } from '@rdfjs/types';
import type { Collections } from '../../storage/Collections';
import type { ResourceGraphs, StoredResource } from '../../storage/ResourceGraphs';
import { RDF_TYPE } from '../../storage/StoreVocabulary';
import { ActorUrls } from './ActorUrls';
import { ADDRESS_FIELDS, AS_NS, AS_PUBLIC, PRIVATE_ADDRESS_FIELDS, PUBLIC_FORMS } from './ActivityVocabulary';

const ADDRESSING = ADDRESS_FIELDS.map((name): string => `${AS_NS}${name}`);
const AUTHORS = [ `${AS_NS}attributedTo`, `${AS_NS}actor` ];
const TOMBSTONE = `${AS_NS}Tombstone`;
const READ_PREDICATES = new Set([ ...ADDRESSING, ...AUTHORS, RDF_TYPE ]);
/** The predicates of a resource's own subject its addressing is read from (addressingIn needs no others). */
export const ADDRESSING_PREDICATES: readonly string[] = [ ...READ_PREDICATES ];

/** Who an object or activity is for, as its stored triples say. */
export interface Addressing {
  /** Its author: `attributedTo` of an object, `actor` of an activity. */
  owners: string[];
  /** Everything in to, cc, bto, bcc and audience. */
  recipients: string[];
  isTombstone: boolean;
}

/** Predicates never served to anyone: blind copies (ActivityPub §5.1). */
export const HIDDEN_PREDICATES: ReadonlySet<string> = new Set(PRIVATE_ADDRESS_FIELDS.map((name): string => `${AS_NS}${name}`));

/**
 * Mastodon's audience rules, for ActivityPub objects and activities: readable by anyone when
 * addressed to Public (to or cc: public and unlisted); when addressed to a local actor's followers
 * collection, by those followers; otherwise by its addressees; always by its author. A Tombstone is
 * public (it says only that something was deleted). What a reader may not read is answered 404.
 */
export class AudienceRules {
  private readonly baseUrl: string;
  private readonly urls: ActorUrls;

  /**
   * @param store - The resource graphs.
   * @param collections - Followers collections.
   * @param baseUrl - Public base URL: followers collections under it are checked.
   */
  public constructor(
    private readonly store: ResourceGraphs,
    private readonly collections: Collections,
    baseUrl: string,
  ) {
    this.urls = new ActorUrls(baseUrl);
    this.baseUrl = this.urls.base;
  }

  /**
   * The stored resource with its addressing, in the one query that reads it (so that whoever serves
   * it next need not read it again); undefined when nothing is stored there.
   */
  public async read(iri: string): Promise<{ stored: StoredResource; addressing: Addressing } | undefined> {
    const stored = await this.store.read(iri);
    return stored ? { stored, addressing: this.addressingIn(iri, stored.data) } : undefined;
  }

  /** Several resources as read() gives each, in one query (a page of a timeline); what is not stored is absent. */
  public async readMany(iris: readonly string[]): Promise<Map<string, { stored: StoredResource; addressing: Addressing }>> {
    const found = new Map<string, { stored: StoredResource; addressing: Addressing }>();
    for (const [ iri, stored ] of await this.store.readMany(iris)) {
      found.set(iri, { stored, addressing: this.addressingIn(iri, stored.data) });
    }
    return found;
  }

  /** The addressing of `iri` as given by its triples (a listing's members, already read). */
  public addressingIn(iri: string, quads: readonly Quad[]): Addressing {
    return this.collect(quads.filter((entry): boolean => entry.subject.value === iri && READ_PREDICATES.has(entry.predicate.value))
      .map((entry): [string, string] => [ entry.predicate.value, entry.object.value ]));
  }

  /**
   * Whether `reader` (a WebID or a remote actor; undefined when anonymous) may read it. `followers`
   * memoises follower checks over one request (a listing asks many times).
   */
  public async mayRead(addressing: Addressing, reader: string | undefined,
    followers = new Map<string, Promise<boolean>>()): Promise<boolean> {
    if (addressing.isTombstone || addressing.recipients.some((recipient): boolean => PUBLIC_FORMS.has(recipient))) {
      return true;
    }
    if (reader === undefined) {
      return false;
    }
    if (addressing.owners.includes(reader) || addressing.recipients.includes(reader)) {
      return true;
    }
    for (const recipient of addressing.recipients) {
      if (this.isLocalFollowersCollection(recipient)) {
        let member = followers.get(recipient);
        if (!member) {
          member = this.collections.contains(recipient, reader);
          followers.set(recipient, member);
        }
        if (await member) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether `reader` may read `iri`, stored from another server: as mayRead, or because it reached
   * the reader's inbox (the activity, or the object of an activity there), which covers a remote
   * author's followers-only posts, addressed to a followers collection this server cannot list.
   */
  public async mayReadReceived(iri: string, addressing: Addressing, reader: string | undefined): Promise<boolean> {
    if (await this.mayRead(addressing, reader)) {
      return true;
    }
    const username = reader === undefined ? undefined : this.urls.usernameOf(reader);
    return username !== undefined && this.collections.holdsItemAbout(this.urls.collection(username, 'inbox'), iri);
  }

  /** The audience a reader gets in a collection page: every recipient IRI that admits them. */
  public async recipientsAdmitting(ownerActor: string, reader: string | undefined): Promise<string[]> {
    // Stored addressing is expanded JSON-LD: Public is always its full IRI there.
    const admitted = [ AS_PUBLIC ];
    if (reader !== undefined) {
      admitted.push(reader);
      const followers = `${ownerActor}/followers`;
      if (this.isLocalFollowersCollection(followers) && await this.collections.contains(followers, reader)) {
        admitted.push(followers);
      }
    }
    return admitted;
  }

  /**
   * The filter of an inbox or outbox page for a reader: none (everything) for the box's owner, else
   * the recipients that admit the reader (recipientsAdmitting).
   */
  public async boxFilter(ownerActor: string, reader: string | undefined): Promise<string[] | undefined> {
    return reader === ownerActor ? undefined : this.recipientsAdmitting(ownerActor, reader);
  }

  private isLocalFollowersCollection(iri: string): boolean {
    return iri.startsWith(this.baseUrl) && iri.endsWith('/followers');
  }

  private collect(entries: [string, string][]): Addressing {
    const addressing: Addressing = { owners: [], recipients: [], isTombstone: false };
    for (const [ predicate, value ] of entries) {
      if (predicate === RDF_TYPE) {
        addressing.isTombstone ||= value === TOMBSTONE;
      } else if (AUTHORS.includes(predicate)) {
        addressing.owners.push(value);
      } else {
        addressing.recipients.push(value);
      }
    }
    return addressing;
  }
}
