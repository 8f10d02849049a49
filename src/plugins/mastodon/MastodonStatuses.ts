import type { Collections } from '../../storage/Collections';
import type { StoredResource } from '../../storage/ResourceGraphs';
import { badRequest, FedpodHttpError, notFound } from '../../util/HttpErrors';
import type { Json } from '../activitypub/ActivityJson';
import { addressingOf, idOf, isObject, typeOf } from '../activitypub/ActivityJson';
import type { ActivityRepository } from '../activitypub/ActivityRepository';
import type { AudienceRules } from '../activitypub/AudienceRules';
import type { OutboxService } from '../activitypub/outbound/OutboxService';
import { AS_NS, AS_PUBLIC } from '../activitypub/ActivityVocabulary';
import type { MediaStore } from '../media/MediaStore';
import { attachmentOf } from '../media/MediaStore';
import type { MastodonAccount } from './AccountEntity';
import type { MastodonAccounts } from './MastodonAccounts';
import type { FilterContext, MastodonFilters } from './MastodonFilters';
import type { MastodonRecords, TimelineItem, TimelineQuery, TimelineSource } from './MastodonRecords';
import type { RemoteThreads } from './RemoteThreads';
import type { MastodonMention, MastodonStatus, Visibility } from './StatusEntity';
import { toStatus, visibilityOf } from './StatusEntity';
import { plainTextToHtml } from './StatusText';

const STATUS_TYPES = new Set([ 'Note', 'Question', 'Article', 'Page', 'Event', 'Video', 'Audio', 'Image' ]);
const VISIBILITIES = new Set<Visibility>([ 'public', 'unlisted', 'private', 'direct' ]);
/** How long an Idempotency-Key keeps answering with the status it made (Mastodon: one hour). */
const IDEMPOTENCY_MS = 3_600_000;
const CONTEXT_DEPTH = 40;
/** How many items a page reads per status it shows when it keeps only some by their kind (an account's media or no-replies tab). */
const KEEP_READ_FACTOR = 8;

export interface MastodonStatusesOptions {
  baseUrl: string;
  activities: ActivityRepository;
  audience: AudienceRules;
  collections: Collections;
  outbox: OutboxService;
  records: MastodonRecords;
  accounts: MastodonAccounts;
  /** Longest status text accepted (Instance: configuration.statuses.max_characters). */
  maxCharacters?: number;
  /** The users' uploads, attached by `media_ids`; without it a status with media is refused. */
  media?: MediaStore;
  /** What moderation hides from timelines (silenced and suspended domains and accounts, mutes). */
  filter?: StatusFilter;
  /** The users' own filters (v2 filters: keywords and statuses), applied to what each user reads. */
  userFilters?: MastodonFilters;
  /** Fetches the parts of a thread on other servers when a user reads a context (none: only what is here). */
  remoteThreads?: RemoteThreads;
}

/** The timelines a StatusFilter is asked about (`list`: a list's own timeline, where exclusive lists hide nothing). */
export type TimelineKind = 'home' | 'public' | 'list';

/** Hides statuses from timelines by their author; implemented by the moderation plugin. */
export interface StatusFilter {
  /** Whether `reader` does not see posts (or reblogs) by `author` (an actor IRI) in this timeline. */
  hides: (author: string, reader: Reader, timeline: TimelineKind) => Promise<boolean>;
  /** Whether the author's posts are shown as sensitive whatever they say (an operator marked the account). */
  marksSensitive?: (author: string) => Promise<boolean>;
  /** Whether the author's media are left out (their domain is blocked with reject_media). */
  rejectsMedia?: (author: string) => Promise<boolean>;
}

/** What POST /api/v1/statuses takes. */
export interface NewStatus {
  status?: string;
  spoiler_text?: string;
  visibility?: string;
  sensitive?: boolean;
  in_reply_to_id?: string;
  language?: string;
  /** Uploads of the user's (MediaStore ids), attached in this order; at most 4. */
  media_ids?: string[];
  /** A poll: the status becomes a Question. */
  poll?: { options?: unknown; expires_in?: unknown; multiple?: unknown };
}

/** Mastodon's limits on polls (its defaults). */
const POLL_OPTIONS = { min: 2, max: 4, characters: 50 };
const POLL_SECONDS = { min: 300, max: 2_629_746 };

/** The collection of a user's bookmarks: not an HTTP IRI, so that no route can serve it (bookmarks are private). */
export function bookmarksOf(actor: string): string {
  return `urn:fedpod:bookmarks:${actor}`;
}

/** A total a remote object carries (`likes` or `shares` with `totalItems`, as Mastodon serves them), else 0. */
function embeddedTotal(value: unknown): number {
  return isObject(value) && typeof value.totalItems === 'number' ? value.totalItems : 0;
}

/** Most attachments a status takes (Mastodon's). */
const MAX_MEDIA = 4;

/** Who reads: the IRI the audience rules know them by, and their username when they are local. */
export interface Reader {
  iri?: string;
  username?: string;
}

/** One request's memo: accounts already built. */
type Memo = Map<string, Promise<MastodonAccount>>;

/** What the statuses of a page need beside their documents, read for all of them at once (a query each, not one per status). */
interface PageFacts {
  replies: Map<string, number>;
  /** A local status's reblogs and favourites (its shares and likes). */
  reactions: Map<string, { reblogs: number; favourites: number }>;
  favourited: Set<string>;
  reblogged: Set<string>;
  bookmarked: Set<string>;
  pinned: Set<string>;
}

/** Resources read for a timeline page, with their addressing (undefined: not stored). */
type Prefetched = Map<string, Awaited<ReturnType<AudienceRules['read']>>>;

/** A timeline item the reader may read: the object shown, and the Announce that reblogs it. */
interface PageEntry {
  object: Json;
  announce?: Json;
  at: Date;
}

/**
 * Statuses for the Mastodon API over the stored ActivityStreams objects and the actors' collections:
 * a status is a stored Note (Question, Article...), a reblog a stored Announce; everything read is
 * checked with the audience rules as an ActivityPub GET would be (what the reader may not read is
 * absent, or 404). Writes go through the outbox as the actor's activities (Create, Delete, Like,
 * Announce, Undo), so they are stored, served and delivered as any other.
 */
export class MastodonStatuses {
  private readonly options: MastodonStatusesOptions;
  private readonly base: string;
  private readonly idempotent = new Map<string, { at: number; iri: Promise<string> }>();

  public constructor(options: MastodonStatusesOptions) {
    this.options = options;
    this.base = options.accounts.urls.base;
  }

  /** The status with this id as the reader may see it; 404 when there is none or they may not read it. */
  public async get(id: string, reader: Reader): Promise<MastodonStatus> {
    const iri = await this.iriOf(id, reader);
    const status = await this.statusOf(iri, reader, new Map());
    if (!status) {
      throw recordNotFound();
    }
    return status;
  }

  /**
   * The status of an object, or the reblog an Announce is, as the reader may see it; undefined when
   * they may not read it (notifications and streamed events show nothing else). `at`: its time in
   * timelines, for an id not minted yet.
   */
  public async shown(iri: string, reader: Reader, at?: Date): Promise<MastodonStatus | undefined> {
    return this.statusOf(iri, reader, new Map(), at);
  }

  /** Whether the reader may read the object or Announce `iri` (its audience checked; nothing built or framed). */
  public async mayRead(iri: string, reader: Reader): Promise<boolean> {
    return (await this.allowed(iri, reader)) !== undefined;
  }

  /** The IRI of a status the reader may read (an object, or an Announce for a reblog); 404 otherwise. */
  public async iriOf(id: string, reader: Reader): Promise<string> {
    for (const candidate of await this.options.records.candidatesFor(id)) {
      if (await this.readable(candidate, reader)) {
        return candidate;
      }
    }
    throw recordNotFound();
  }

  /**
   * Ancestors (oldest first) and descendants (depth first, in time order) the reader may read, less
   * those moderation hides from the reader (as in the home timeline: suspended, muted, their domain
   * blocked by the reader). For a user, the parts of the thread on other servers are fetched first
   * (RemoteThreads, for a bounded time).
   */
  public async context(id: string, reader: Reader): Promise<{ ancestors: MastodonStatus[]; descendants: MastodonStatus[] }> {
    const iri = await this.iriOf(id, reader);
    await this.options.remoteThreads?.fetch(iri, reader);
    const memo: Memo = new Map();
    const start = await this.readable(iri, reader);
    const ancestors: MastodonStatus[] = [];
    let parent = start ? idOf(start.inReplyTo) : undefined;
    while (parent && ancestors.length < CONTEXT_DEPTH) {
      const object = await this.readable(parent, reader);
      const status = object ? await this.objectStatus(object, reader, memo) : undefined;
      if (!status) {
        break;
      }
      ancestors.unshift(status);
      parent = idOf(object!.inReplyTo);
    }
    const descendants: MastodonStatus[] = [];
    const visit = async(of: string, depth: number): Promise<void> => {
      if (depth > CONTEXT_DEPTH) {
        return;
      }
      const replies: { status: MastodonStatus; iri: string }[] = [];
      for (const reply of await this.options.records.repliesTo(of)) {
        const object = await this.readable(reply, reader);
        const status = object ? await this.objectStatus(object, reader, memo) : undefined;
        if (status) {
          replies.push({ status, iri: reply });
        }
      }
      replies.sort((first, second): number => first.status.created_at.localeCompare(second.status.created_at));
      for (const reply of replies) {
        descendants.push(reply.status);
        await visit(reply.iri, depth + 1);
      }
    };
    await visit(iri, 1);
    const shown = async(statuses: MastodonStatus[]): Promise<MastodonStatus[]> => {
      const hidden = await Promise.all(statuses.map(async(status): Promise<boolean> => this.hidden(status, reader, 'home')));
      return this.filtered(statuses.filter((status, index): boolean => !hidden[index]), reader, 'thread');
    };
    return { ancestors: await shown(ancestors), descendants: await shown(descendants) };
  }

  /**
   * A page of a timeline as statuses, newest first; items the reader may not read are left out, and
   * so are those the reader's filters hide in `context` (by default the kind's: home for a list).
   */
  public async timeline(source: TimelineSource, query: TimelineQuery, reader: Reader, kind: TimelineKind = 'public',
    context: FilterContext = kind === 'public' ? 'public' : 'home', keep?: (status: MastodonStatus) => boolean): Promise<MastodonStatus[]> {
    // Read twice the page: items the reader may not see, or moderation or filters hide, leave room for the next ones;
    // more with a `keep` of the page's own (an account's media or no-replies tab), which may pass only a few.
    const items = await this.options.records.timeline(source, { ...query, limit: query.limit * (keep ? KEEP_READ_FACTOR : 2) });
    const memo: Memo = new Map();
    const shown: MastodonStatus[] = [];
    let next = 0;
    // Only as many statuses are built as the page still lacks, a batch at a time.
    while (shown.length < query.limit && next < items.length) {
      const batch = items.slice(next, next + query.limit - shown.length);
      next += batch.length;
      // Every item is read with the audience rules first; what the readable ones need beside is then read for all at once.
      const reads = await this.prefetch(batch.map((item): string => item.iri));
      const entries = (await Promise.all(batch.map(async(item): Promise<PageEntry | undefined> => this.itemEntry(item, reader, reads))))
        .filter((entry): entry is PageEntry => entry !== undefined);
      const facts = await this.pageFacts(entries.map((entry): Json => entry.object), reader);
      const statuses = await Promise.all(entries.map(async(entry): Promise<MastodonStatus | undefined> => {
        const status = entry.announce ?
          await this.announceStatus(entry.announce, reader, memo, entry.at, { object: entry.object, facts }) :
          await this.objectStatus(entry.object, reader, memo, entry.at, facts);
        if (!status || (keep && !keep(status)) || await this.hidden(status, reader, kind)) {
          return undefined;
        }
        return this.moderated(status);
      }));
      shown.push(...await this.filtered(statuses.filter((status): status is MastodonStatus => status !== undefined), reader, context));
    }
    return query.ascending ? shown.reverse() : shown;
  }

  /** The statuses with the reader's own filters of this context applied (hidden ones left out, warned ones `filtered`). */
  public async filtered(statuses: MastodonStatus[], reader: Reader, context: FilterContext): Promise<MastodonStatus[]> {
    const { userFilters } = this.options;
    return userFilters && reader.username !== undefined ? userFilters.apply(reader.username, statuses, context) : statuses;
  }

  /** The status as moderation presents it: media of a reject_media domain left out, an account marked sensitive shown so. */
  private async moderated(status: MastodonStatus): Promise<MastodonStatus> {
    const filter = this.options.filter;
    if (!filter) {
      return status;
    }
    let shown = status;
    if (await filter.marksSensitive?.(status.account.uri)) {
      shown = { ...shown, sensitive: true };
    }
    if (shown.media_attachments.length > 0 && await filter.rejectsMedia?.(status.account.uri)) {
      shown = { ...shown, media_attachments: []};
    }
    if (shown.reblog && shown.reblog.media_attachments.length > 0 && await filter.rejectsMedia?.(shown.reblog.account.uri)) {
      shown = { ...shown, reblog: { ...shown.reblog, media_attachments: []}};
    }
    return shown;
  }

  /** Whether moderation hides the status (by its author, or a reblog by the original's) from the reader's timeline. */
  private async hidden(status: MastodonStatus, reader: Reader, kind: TimelineKind): Promise<boolean> {
    const filter = this.options.filter;
    if (!filter) {
      return false;
    }
    const authors = [ status.account.uri, status.reblog?.account.uri ].filter((author): author is string => Boolean(author));
    for (const author of authors) {
      if (await filter.hides(author, reader, kind)) {
        return true;
      }
    }
    return false;
  }

  /** The recipients that admit the reader to an actor's posts (for a listing filtered in the store). */
  public async audienceFor(ownerActor: string, reader: Reader): Promise<string[]> {
    return this.options.audience.recipientsAdmitting(ownerActor, reader.iri);
  }

  /** Posts a status as `username` (a Create of a Note through the outbox) and answers it. */
  public async post(username: string, input: NewStatus, idempotencyKey?: string): Promise<MastodonStatus> {
    const reader = { iri: this.options.accounts.urls.actor(username), username };
    if (idempotencyKey) {
      const key = `${username} ${idempotencyKey}`;
      this.forgetOldKeys();
      let entry = this.idempotent.get(key);
      if (!entry) {
        entry = { at: Date.now(), iri: this.create(username, input) };
        this.idempotent.set(key, entry);
        entry.iri.catch((): void => {
          this.idempotent.delete(key);
        });
      }
      return (await this.statusOf(await entry.iri, reader, new Map()))!;
    }
    return (await this.statusOf(await this.create(username, input), reader, new Map()))!;
  }

  /** Deletes the user's own status (a Delete through the outbox) and answers it as it was, with its text. */
  public async delete(username: string, id: string): Promise<MastodonStatus> {
    const reader = { iri: this.options.accounts.urls.actor(username), username };
    const iri = await this.iriOf(id, reader);
    const object = await this.readable(iri, reader);
    if (!object || idOf(object.attributedTo) !== reader.iri) {
      // Mastodon answers another's status as not found.
      throw recordNotFound();
    }
    const status = (await this.objectStatus(object, reader, new Map()))!;
    await this.options.outbox.post(username, { type: 'Delete', object: iri, ...addressingOf(object) });
    return { ...status, text: status.content };
  }

  /** Favourites (a Like) or reblogs (an Announce) a status the user may read; again does nothing. */
  public async react(username: string, id: string, type: 'Like' | 'Announce'): Promise<MastodonStatus> {
    const reader = { iri: this.options.accounts.urls.actor(username), username };
    const iri = await this.objectIriOf(id, reader);
    const object = (await this.readable(iri, reader))!;
    if (type === 'Announce' && [ 'private', 'direct' ].includes(visibilityOf(object, undefined))) {
      throw unprocessable('Only public and unlisted statuses can be reblogged.');
    }
    const existing = await this.ownActivities(username, type, iri);
    let announce = existing[0];
    if (existing.length === 0) {
      const author = idOf(object.attributedTo);
      const activity: Json = type === 'Like' ?
        { type, object: iri, to: author ? [ author ] : [] } :
        { type, object: iri, to: [ AS_PUBLIC ], cc: [ ...author ? [ author ] : [], `${reader.iri}/followers` ] };
      announce = (await this.options.outbox.post(username, activity)).id;
    }
    const memo: Memo = new Map();
    if (type === 'Announce') {
      return (await this.statusOf(announce, reader, memo))!;
    }
    return (await this.objectStatus(object, reader, memo))!;
  }

  /** Takes back the user's Like or Announce of a status (an Undo through the outbox). */
  public async unreact(username: string, id: string, type: 'Like' | 'Announce'): Promise<MastodonStatus> {
    const reader = { iri: this.options.accounts.urls.actor(username), username };
    const iri = await this.objectIriOf(id, reader);
    const outbox = this.options.accounts.urls.collection(username, 'outbox');
    for (const activity of await this.ownActivities(username, type, iri)) {
      const stored = await this.options.activities.read(activity);
      await this.options.outbox.post(username, { type: 'Undo', object: activity, ...stored ? addressingOf(stored) : {} });
      // Out of the outbox once undone, as an LDP DELETE of the activity does: timelines no longer list it.
      await this.options.collections.remove(outbox, activity);
    }
    return (await this.objectStatus((await this.readable(iri, reader))!, reader, new Map()))!;
  }

  /** The statuses of these objects or Announces the reader may read, in their order (the others left out). */
  public async statusesOf(iris: readonly string[], reader: Reader): Promise<MastodonStatus[]> {
    const memo: Memo = new Map();
    const statuses = await Promise.all(iris.map(async(iri): Promise<MastodonStatus | undefined> => this.statusOf(iri, reader, memo)));
    return statuses.filter((status): status is MastodonStatus => status !== undefined);
  }

  /** The statuses of an actor's featured collection the reader may read, newest pin first. */
  public async pinned(featured: string, reader: Reader): Promise<MastodonStatus[]> {
    const statuses = await this.statusesOf((await this.options.collections.all(featured)).reverse(), reader);
    return statuses.map((status): MastodonStatus => ({ ...status, pinned: true }));
  }

  /** The stored object of a status the reader may read, with its IRI (a reblog's stands for what it reblogs); 404 otherwise. */
  public async readableObject(id: string, reader: Reader): Promise<{ iri: string; object: Json }> {
    const iri = await this.objectIriOf(id, reader);
    return { iri, object: (await this.readable(iri, reader))! };
  }

  /**
   * Edits the user's own status: an Update through the outbox with the new text (and content
   * warning, sensitivity, language), everything else kept, delivered to whoever got the status.
   */
  public async edit(username: string, id: string, input: NewStatus): Promise<MastodonStatus> {
    const reader = { iri: this.options.accounts.urls.actor(username), username };
    const { iri, object } = await this.readableObject(id, reader);
    if (idOf(object.attributedTo) !== reader.iri) {
      throw recordNotFound();
    }
    const text = this.checkedText(input);
    // Mentions and hashtags are linked again by the outbox, as in a new post.
    const content = plainTextToHtml(text);
    const edited: Json = { ...object, content, summary: input.spoiler_text ? String(input.spoiler_text) : undefined,
      sensitive: input.sensitive === true || Boolean(input.spoiler_text),
      contentMap: input.language ? { [String(input.language)]: content } : undefined };
    delete edited['@context'];
    for (const key of [ 'summary', 'contentMap', 'updated' ]) {
      if (edited[key] === undefined) {
        delete edited[key];
      }
    }
    await this.options.outbox.post(username, { type: 'Update', object: edited });
    return (await this.statusOf(iri, reader, new Map()))!;
  }

  /** The IRI of a status's object: a reblog's id stands for the status it reblogs. */
  public async objectIriOf(id: string, reader: Reader): Promise<string> {
    const iri = await this.iriOf(id, reader);
    const document = (await this.readable(iri, reader))!;
    if (typeOf(document) === 'Announce') {
      const object = idOf(document.object);
      if (!object || !await this.readable(object, reader)) {
        throw recordNotFound();
      }
      return object;
    }
    return iri;
  }

  private async ownActivities(username: string, type: 'Like' | 'Announce', object: string): Promise<string[]> {
    const urls = this.options.accounts.urls;
    return this.options.records.activitiesOn(urls.collection(username, 'outbox'), urls.actor(username), `${AS_NS}${type}`, object);
  }

  private async create(username: string, input: NewStatus): Promise<string> {
    const actor = this.options.accounts.urls.actor(username);
    const mediaIds = Array.isArray(input.media_ids) ? input.media_ids.map(String) : [];
    if (mediaIds.length > MAX_MEDIA || (mediaIds.length > 0 && !this.options.media)) {
      throw unprocessable(`Validation failed: Media attachments are at most ${this.options.media ? MAX_MEDIA : 0}`);
    }
    const uploads = mediaIds.length > 0 ? await this.options.media!.forPost(username, mediaIds) : [];
    // A status of media alone needs no text (Mastodon's rule).
    const text = this.checkedText(input, uploads.length > 0);
    const visibility = (input.visibility ?? 'public') as Visibility;
    if (!VISIBILITIES.has(visibility)) {
      throw unprocessable(`Validation failed: Visibility is not one of ${[ ...VISIBILITIES ].join(', ')}`);
    }
    const reader = { iri: actor, username };
    const inReplyTo = input.in_reply_to_id ? await this.objectIriOf(String(input.in_reply_to_id), reader) : undefined;
    // A reply reaches the author it answers (Mastodon addresses them in cc), unless it is direct.
    // Mentions and hashtags in the text become tags, links and addressees in the outbox (OutboundHandles).
    const parentAuthor = inReplyTo ? idOf((await this.readable(inReplyTo, reader))?.attributedTo) : undefined;
    const mentioned = parentAuthor && parentAuthor !== actor && visibility !== 'direct' ? [ parentAuthor ] : [];
    const followers = `${actor}/followers`;
    const addressing: Record<Visibility, { to: string[]; cc: string[] }> = {
      public: { to: [ AS_PUBLIC ], cc: [ followers, ...mentioned ] },
      unlisted: { to: [ followers ], cc: [ AS_PUBLIC, ...mentioned ] },
      private: { to: [ followers ], cc: mentioned },
      direct: { to: mentioned, cc: [] },
    };
    const note: Json = {
      type: 'Note',
      content: plainTextToHtml(text),
      ...addressing[visibility],
      ...input.spoiler_text ? { summary: String(input.spoiler_text) } : {},
      sensitive: input.sensitive === true || Boolean(input.spoiler_text),
      ...inReplyTo ? { inReplyTo } : {},
      ...uploads.length > 0 ? { attachment: uploads.map(attachmentOf) } : {},
      ...input.language ? { contentMap: { [String(input.language)]: plainTextToHtml(text) }} : {},
    };
    if (input.poll !== undefined) {
      Object.assign(note, pollQuestion(input.poll));
    }
    const posted = await this.options.outbox.post(username, note);
    const object = idOf(posted.activity.object);
    if (!object) {
      throw badRequest('The status was not stored.');
    }
    // From now on the post's audience reads the uploads (MediaAccess).
    await this.options.media?.attach(uploads, object);
    return object;
  }

  /** A status's text: not blank (unless it has media), not over the limit (422 otherwise). */
  private checkedText(input: NewStatus, mayBeBlank = false): string {
    const text = typeof input.status === 'string' ? input.status : '';
    if (text.trim() === '' && !mayBeBlank) {
      throw unprocessable('Validation failed: Text can\'t be blank');
    }
    const max = this.options.maxCharacters ?? 5000;
    if ([ ...text ].length > max) {
      throw unprocessable(`Validation failed: Text character limit of ${max} exceeded`);
    }
    return text;
  }

  private forgetOldKeys(): void {
    const oldest = Date.now() - IDEMPOTENCY_MS;
    for (const [ key, entry ] of this.idempotent) {
      if (entry.at < oldest) {
        this.idempotent.delete(key);
      }
    }
  }

  /** The document at `iri` when the reader may read it (as an ActivityPub GET of it would answer). */
  /** `reads`: resources read already in this request (a timeline page's); their audience is checked all the same. */
  private async readable(iri: string, reader: Reader, reads?: Prefetched): Promise<Json | undefined> {
    const found = await this.allowed(iri, reader, reads);
    return found ? this.options.activities.read(iri, found.stored, (object): StoredResource | undefined => reads?.get(object)?.stored) :
      undefined;
  }

  /** What the audience check read of `iri`, when the reader may read it. */
  private async allowed(iri: string, reader: Reader, reads?: Prefetched): Promise<Awaited<ReturnType<AudienceRules['read']>>> {
    const { audience } = this.options;
    const found = reads?.has(iri) ? reads.get(iri) : await audience.read(iri);
    if (!found) {
      return undefined;
    }
    const allowed = iri.startsWith(this.base) ?
      await audience.mayRead(found.addressing, reader.iri) :
      await audience.mayReadReceived(iri, found.addressing, reader.iri);
    return allowed ? found : undefined;
  }

  /** The status of an object, or the reblog an Announce is, when the reader may read it. */
  private async statusOf(iri: string, reader: Reader, memo: Memo, at?: Date): Promise<MastodonStatus | undefined> {
    const document = await this.readable(iri, reader);
    if (!document) {
      return undefined;
    }
    if (typeOf(document) === 'Announce') {
      return this.announceStatus(document, reader, memo, at);
    }
    return this.objectStatus(document, reader, memo, at);
  }

  /** The documents of a timeline item the reader may read (the Announce and its object, or the Create's object); undefined otherwise. */
  private async itemEntry(item: TimelineItem, reader: Reader, reads?: Prefetched): Promise<PageEntry | undefined> {
    const document = await this.readable(item.iri, reader, reads);
    if (!document) {
      return undefined;
    }
    if (typeOf(document) === 'Announce') {
      return this.announceEntry(document, reader, item.time, reads);
    }
    // Embedded or named only (a stored Create whose object holds a list, such as an attachment's focal
    // point, comes back naming it): read again with its own audience, a Create may be addressed more
    // widely than its object.
    const objectIri = idOf(document.object);
    const object = objectIri ? await this.readable(objectIri, reader, reads) : undefined;
    if (!object) {
      return undefined;
    }
    return typeOf(object) === 'Announce' ? this.announceEntry(object, reader, item.time, reads) : { object, at: item.time };
  }

  private async announceEntry(announce: Json, reader: Reader, at: Date, reads?: Prefetched): Promise<PageEntry | undefined> {
    const objectIri = idOf(announce.object);
    const object = objectIri ? await this.readable(objectIri, reader, reads) : undefined;
    return object ? { object, announce, at } : undefined;
  }

  /**
   * A timeline page's items and the objects they name, read in two queries rather than three per item
   * (each still goes through the audience check with what was read). An object an Announce names that
   * is itself an Announce is read on its own, as before.
   */
  private async prefetch(iris: readonly string[]): Promise<Prefetched> {
    const { audience } = this.options;
    const resources: Prefetched = new Map();
    const items = await audience.readMany(iris);
    const objects = new Set<string>();
    for (const iri of iris) {
      const found = items.get(iri);
      resources.set(iri, found);
      const object = found?.stored.data.find((entry): boolean => entry.subject.value === iri && entry.predicate.value === `${AS_NS}object` &&
        entry.object.termType === 'NamedNode')?.object.value;
      if (object && !iris.includes(object)) {
        objects.add(object);
      }
    }
    const read = await audience.readMany([ ...objects ]);
    for (const object of objects) {
      resources.set(object, read.get(object));
    }
    return resources;
  }

  /** The page's replies, reactions and the reader's own marks of these objects: one query each for all of them. */
  private async pageFacts(objects: readonly Json[], reader: Reader): Promise<PageFacts> {
    const { records, collections, accounts } = this.options;
    const iris = [ ...new Set(objects.map((object): string | undefined => idOf(object))
      .filter((iri): iri is string => iri !== undefined)) ];
    const local = iris.filter((iri): boolean => iri.startsWith(this.base));
    const mine = reader.username ? accounts.urls.actor(reader.username) : undefined;
    const own = objects.filter((object): boolean => mine !== undefined && idOf(object.attributedTo) === mine)
      .map((object): string => idOf(object)!);
    const none = new Set<string>();
    const [ replies, counts, favourited, reblogged, bookmarked, pinned ] = await Promise.all([
      records.replyCounts(iris),
      collections.counts(local.flatMap((iri): string[] => [ `${iri}/shares`, `${iri}/likes` ])),
      reader.username ? records.itemsIn(accounts.urls.collection(reader.username, 'liked'), iris) : none,
      reader.username ?
        records.objectsActedOn(accounts.urls.collection(reader.username, 'outbox'), mine!, `${AS_NS}Announce`, iris) :
        none,
      mine ? records.itemsIn(bookmarksOf(mine), iris) : none,
      mine ? records.itemsIn(`${mine}/featured`, own) : none,
    ]);
    const reactions = new Map(local.map((iri, index): [string, { reblogs: number; favourites: number }] =>
      [ iri, { reblogs: counts[2 * index], favourites: counts[(2 * index) + 1] }]));
    return { replies, reactions, favourited, reblogged, bookmarked, pinned };
  }

  /** `read`: the reblogged object, read already with the audience rules, and its page's facts. */
  private async announceStatus(announce: Json, reader: Reader, memo: Memo, at?: Date,
    read?: { object: Json; facts: PageFacts }): Promise<MastodonStatus | undefined> {
    const objectIri = idOf(announce.object);
    const object = read ? read.object : objectIri ? await this.readable(objectIri, reader) : undefined;
    const reblog = object ? await this.objectStatus(object, reader, memo, undefined, read?.facts) : undefined;
    const actor = idOf(announce.actor);
    if (!reblog || !actor) {
      return undefined;
    }
    const iri = idOf(announce)!;
    const published = typeof announce.published === 'string' ? new Date(announce.published) : undefined;
    const account = await this.options.accounts.accountOf(actor, memo);
    const status = toStatus({ ...announce, content: '' }, {
      id: await this.options.records.idOf(iri, at ?? published),
      account,
      reblog,
    });
    return { ...status, uri: iri, url: iri, visibility: visibilityOf(announce, undefined), sensitive: false,
      media_attachments: [], tags: [], poll: null, language: null, reblogged: reblog.reblogged,
      favourited: reblog.favourited };
  }

  /** `facts`: the page's, read for all its statuses at once; without them, this status's alone are read. */
  private async objectStatus(object: Json, reader: Reader, memo: Memo, at?: Date, facts?: PageFacts): Promise<MastodonStatus | undefined> {
    const type = typeOf(object);
    const iri = idOf(object);
    const author = idOf(object.attributedTo);
    if (!iri || !author || !type || !STATUS_TYPES.has(type)) {
      return undefined;
    }
    // A vote in a poll (a Note naming an option, without content, in reply to the poll) is no status, as on Mastodon.
    if (type === 'Note' && typeof object.name === 'string' && object.content === undefined && object.inReplyTo !== undefined) {
      return undefined;
    }
    const { records, accounts } = this.options;
    const published = typeof object.published === 'string' && !Number.isNaN(Date.parse(object.published)) ?
      new Date(object.published) : undefined;
    const parent = idOf(object.inReplyTo);
    const local = iri.startsWith(this.base);
    // A status alone has its facts read as a page of one: the same queries, in one place.
    const [ id, account, inReplyToId, mentions, inReplyToAccountId, known ] = await Promise.all([
      records.idOf(iri, at ?? published),
      accounts.accountOf(author, memo),
      parent ? records.idOf(parent) : undefined,
      this.mentionsOf(object),
      this.parentAuthorId(parent),
      facts ?? this.pageFacts([ object ], reader),
    ]);
    const reactions = local ? known.reactions.get(iri) : undefined;
    return toStatus(object, { id, account, inReplyToId, inReplyToAccountId, mentions, local,
      counts: { replies: known.replies.get(iri) ?? 0, reblogs: reactions?.reblogs ?? embeddedTotal(object.shares),
        favourites: reactions?.favourites ?? embeddedTotal(object.likes) },
      favourited: known.favourited.has(iri), reblogged: known.reblogged.has(iri), bookmarked: known.bookmarked.has(iri),
      pinned: known.pinned.has(iri) });
  }

  /** The account id of the author of the status replied to. */
  private async parentAuthorId(parent: string | undefined): Promise<string | undefined> {
    if (!parent) {
      return undefined;
    }
    const parentDocument = await this.options.activities.read(parent);
    const parentAuthor = parentDocument ? idOf(parentDocument.attributedTo) : undefined;
    return parentAuthor ? this.options.accounts.idOf(parentAuthor) : undefined;
  }

  private async mentionsOf(object: Json): Promise<MastodonMention[]> {
    const tags = Array.isArray(object.tag) ? object.tag : object.tag ? [ object.tag ] : [];
    const mentions: MastodonMention[] = [];
    for (const tag of tags) {
      const href = isObject(tag) && typeOf(tag) === 'Mention' ? idOf(tag.href) : undefined;
      if (href) {
        const name = typeof tag.name === 'string' ? tag.name.replace(/^@/u, '') : href;
        const acct = this.options.accounts.urls.usernameOf(href) ?? name;
        mentions.push({ id: await this.options.accounts.idOf(href), username: acct.split('@')[0], url: href, acct });
      }
    }
    return mentions;
  }
}

/** A Question's type, options and end from Mastodon's `poll` parameters; 422 when they are out of Mastodon's limits. */
function pollQuestion(poll: NonNullable<NewStatus['poll']>): Json {
  const options = Array.isArray(poll.options) ? poll.options.map(String) : [];
  if (options.length < POLL_OPTIONS.min || options.length > POLL_OPTIONS.max ||
    options.some((option): boolean => option.trim() === '' || [ ...option ].length > POLL_OPTIONS.characters) ||
    new Set(options).size !== options.length) {
    throw unprocessable(`Validation failed: A poll has ${POLL_OPTIONS.min} to ${POLL_OPTIONS.max} different options of at most ${POLL_OPTIONS.characters} characters`);
  }
  const seconds = Number(poll.expires_in);
  if (!Number.isInteger(seconds) || seconds < POLL_SECONDS.min || seconds > POLL_SECONDS.max) {
    throw unprocessable(`Validation failed: A poll lasts ${POLL_SECONDS.min} to ${POLL_SECONDS.max} seconds`);
  }
  const choices = options.map((name): Json => ({ type: 'Note', name, replies: { type: 'Collection', totalItems: 0 }}));
  return { type: 'Question', [poll.multiple === true || poll.multiple === 'true' ? 'anyOf' : 'oneOf']: choices,
    endTime: new Date(Date.now() + (seconds * 1000)).toISOString(), votersCount: 0 };
}

function unprocessable(message: string): Error {
  return new FedpodHttpError(422, 'unprocessable_entity', message);
}

function recordNotFound(): Error {
  return notFound('Record not found', 'record_not_found');
}
