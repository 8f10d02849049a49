import type { Collections } from '../../storage/Collections';
import { InvalidCursorError } from '../../storage/InvalidCursorError';
import { badRequest, FedpodHttpError, notFound } from '../../util/HttpErrors';
import type { Json } from '../activitypub/ActivityJson';
import { idOf, typeOf } from '../activitypub/ActivityJson';
import type { ActivityRepository } from '../activitypub/ActivityRepository';
import type { ObjectThreads } from '../activitypub/ObjectThreads';
import type { ObjectVersions } from '../activitypub/ObjectVersions';
import type { OutboxService } from '../activitypub/outbound/OutboxService';
import type { MastodonAccount } from './AccountEntity';
import type { MastodonAccounts } from './MastodonAccounts';
import type { MastodonStatuses, Reader } from './MastodonStatuses';
import { bookmarksOf } from './MastodonStatuses';
import type { MastodonPoll, MastodonStatus } from './StatusEntity';
import { pollOf } from './StatusEntity';

export interface MastodonThreadsOptions {
  activities: ActivityRepository;
  collections: Collections;
  outbox: OutboxService;
  statuses: MastodonStatuses;
  accounts: MastodonAccounts;
  threads: ObjectThreads;
  versions: ObjectVersions;
}

/** Mastodon's StatusEdit: one version of a status. */
export interface StatusEdit {
  content: string;
  spoiler_text: string;
  sensitive: boolean;
  created_at: string;
  account: MastodonAccount;
  poll: null;
  media_attachments: unknown[];
  emojis: unknown[];
}

/** A page of a user's own list (bookmarks, favourites), with the cursors of its ends for the Link header. */
export interface ListPage {
  statuses: MastodonStatus[];
  /** The cursor after the last item (older), when there may be more. */
  next?: string;
  /** The cursor of the first item (newer). */
  prev?: string;
}

/**
 * The Mastodon API around threads, beside MastodonStatuses: an edit's history and source, who
 * favourited or reblogged a status, bookmarks, the favourites list, a hashtag's timeline and polls.
 * Every status is read with the audience rules (MastodonStatuses): a status the reader may not read
 * is a 404, and absent from lists. Bookmarks are a collection per user that no route serves
 * (`urn:fedpod:bookmarks:<actor>`); favourites are the user's `liked` collection.
 */
export class MastodonThreads {
  public constructor(private readonly options: MastodonThreadsOptions) {}

  /** The versions of a status, oldest first, ending with the current one (one entry when never edited). */
  public async history(id: string, reader: Reader): Promise<StatusEdit[]> {
    const { statuses, versions } = this.options;
    const { iri } = await statuses.readableObject(id, reader);
    const current = await statuses.get(id, reader);
    const edits: StatusEdit[] = (await versions.of(iri)).map((version): StatusEdit => ({
      content: version.content, spoiler_text: version.summary, sensitive: version.sensitive || version.summary !== '',
      created_at: version.at, account: current.account, poll: null, media_attachments: [], emojis: [],
    }));
    edits.push({ content: current.content, spoiler_text: current.spoiler_text, sensitive: current.sensitive,
      created_at: current.edited_at ?? current.created_at, account: current.account, poll: null,
      media_attachments: current.media_attachments, emojis: [] });
    return edits;
  }

  /** The text of the user's own status for editing: its content as plain text (HTML left out), and its content warning. */
  public async source(username: string, id: string): Promise<{ id: string; text: string; spoiler_text: string }> {
    const status = await this.own(username, id);
    const text = status.content.replaceAll(/<br\s*\/?>/gu, '\n').replaceAll(/<\/p>\s*<p>/gu, '\n\n').replaceAll(/<[^>]*>/gu, '')
      .replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&#39;', '\'')
      .replaceAll('&amp;', '&');
    return { id: status.id, text, spoiler_text: status.spoiler_text };
  }

  /** The accounts whose Like (`likes`) or Announce (`shares`) of a local status is kept; [] for another server's. */
  public async reactors(id: string, reader: Reader, kind: 'likes' | 'shares'): Promise<MastodonAccount[]> {
    const { iri } = await this.options.statuses.readableObject(id, reader);
    const activities = await this.options.activities.readMany(await this.options.collections.all(`${iri}/${kind}`));
    const actors = [ ...new Set([ ...activities.values() ].map((activity): string | undefined => idOf(activity.actor))
      .filter((actor): actor is string => actor !== undefined)) ];
    const memo = new Map<string, Promise<MastodonAccount>>();
    return Promise.all(actors.map(async(actor): Promise<MastodonAccount> => this.options.accounts.accountOf(actor, memo)));
  }

  /** Bookmarks (or unbookmarks) a status the user may read; again does nothing. */
  public async bookmark(username: string, id: string, on: boolean): Promise<MastodonStatus> {
    const reader = this.readerFor(username);
    const { iri } = await this.options.statuses.readableObject(id, reader);
    const list = bookmarksOf(reader.iri!);
    await (on ? this.options.collections.add(list, iri) : this.options.collections.remove(list, iri));
    return this.options.statuses.get(id, reader);
  }

  /** Pins (or unpins) the user's own public status: an Add to (Remove from) their `featured` collection, through the outbox. */
  public async pin(username: string, id: string, on: boolean): Promise<MastodonStatus> {
    const reader = this.readerFor(username);
    const { iri, object } = await this.options.statuses.readableObject(id, reader);
    if (idOf(object.attributedTo) !== reader.iri) {
      throw unprocessable('Validation failed: You can only pin your own statuses');
    }
    const featured = this.options.accounts.urls.collection(username, 'featured');
    if (on !== await this.options.collections.contains(featured, iri)) {
      await this.options.outbox.post(username, { type: on ? 'Add' : 'Remove', object: iri, target: featured });
    }
    return this.options.statuses.get(id, reader);
  }

  /** A page of the user's bookmarks (`urn:fedpod:bookmarks:<actor>`) or favourites (their `liked`), newest first. */
  public async list(username: string, which: 'bookmarks' | 'favourites', limit: number, before?: string, after?: string): Promise<ListPage> {
    const reader = this.readerFor(username);
    const collection = which === 'bookmarks' ? bookmarksOf(reader.iri!) : this.options.accounts.urls.collection(username, 'liked');
    let page;
    try {
      page = await this.options.collections.page(collection, { limit, before, after });
    } catch (error: unknown) {
      if (error instanceof InvalidCursorError) {
        throw badRequest('That page cursor is not valid.', 'invalid_cursor');
      }
      throw error;
    }
    const statuses = await this.options.statuses.statusesOf(page.items.map((item): string => item.iri), reader);
    return { statuses, next: page.more && page.items.length > 0 ? page.items.at(-1)!.cursor : undefined,
      prev: page.items[0]?.cursor };
  }

  /** The local public statuses with a hashtag, newest first (`before`: a status id, Mastodon's max_id). */
  public async tagTimeline(tag: string, reader: Reader, limit: number, maxId?: string): Promise<MastodonStatus[]> {
    let before: string | undefined;
    if (maxId) {
      const { object } = await this.options.statuses.readableObject(maxId, reader);
      before = typeof object.published === 'string' ? object.published : undefined;
    }
    const items = await this.options.threads.tagged(tag, limit, before);
    const statuses = await this.options.statuses.statusesOf(items.map((item): string => item.iri), reader);
    return this.options.statuses.filtered(statuses, reader, 'public');
  }

  /** The poll of a status the reader may read, with their own votes. */
  public async poll(id: string, reader: Reader): Promise<MastodonPoll> {
    const { iri, object } = await this.options.statuses.readableObject(id, reader);
    const poll = pollOf(object, id);
    if (!poll) {
      throw notFound('Record not found', 'record_not_found');
    }
    const own = reader.username ? await this.ownVotes(iri, object, reader.iri!) : [];
    return { ...poll, voted: own.length > 0, own_votes: own };
  }

  /**
   * Votes in a poll the user may read (Mastodon's `choices`, option indexes): one Note per choice
   * through the outbox, as Mastodon sends votes (`name` the option, `inReplyTo` the poll, to its
   * author), so a poll of another server counts them there. 422 for the user's own poll, a closed
   * one, a second vote, several choices in a single-choice poll or an option it does not have.
   */
  public async vote(username: string, id: string, choices: number[]): Promise<MastodonPoll> {
    const reader = this.readerFor(username);
    const { iri, object } = await this.options.statuses.readableObject(id, reader);
    const poll = pollOf(object, id);
    const author = idOf(object.attributedTo);
    if (!poll || !author) {
      throw notFound('Record not found', 'record_not_found');
    }
    if (author === reader.iri) {
      throw unprocessable('Validation failed: You cannot vote in your own poll');
    }
    if (poll.expired) {
      throw unprocessable('Validation failed: The poll has already ended');
    }
    const unique = [ ...new Set(choices) ];
    if (unique.length === 0 || unique.some((choice): boolean => !Number.isInteger(choice) || choice < 0 || choice >= poll.options.length) ||
      (!poll.multiple && unique.length > 1)) {
      throw unprocessable('Validation failed: Choices are not valid');
    }
    if ((await this.ownVotes(iri, object, reader.iri!)).length > 0) {
      throw unprocessable('Validation failed: You have already voted on this poll');
    }
    for (const choice of unique) {
      await this.options.outbox.post(username, { type: 'Note', name: poll.options[choice].title, inReplyTo: iri, to: [ author ]});
    }
    return { ...poll, voted: true, own_votes: unique };
  }

  /** The options the voter chose, by index: their votes posted here (a Note naming the option, in reply to the poll). */
  private async ownVotes(poll: string, object: Json, voter: string): Promise<number[]> {
    const options = pollOf(object, poll)?.options.map((option): string => option.title) ?? [];
    const replies = await this.options.activities.readMany((await this.options.threads.replies(poll, true)).map((reply): string => reply.iri));
    const chosen = new Set([ ...replies.values() ].filter((reply): boolean => idOf(reply.attributedTo) === voter &&
      typeOf(reply) === 'Note' && typeof reply.name === 'string' && reply.content === undefined).map((reply): unknown => reply.name));
    return options.map((name, index): number => (chosen.has(name) ? index : -1)).filter((index): boolean => index >= 0);
  }

  private async own(username: string, id: string): Promise<MastodonStatus> {
    const reader = this.readerFor(username);
    const status = await this.options.statuses.get(id, reader);
    if (status.account.url !== reader.iri && status.uri !== reader.iri && status.account.uri !== reader.iri) {
      throw notFound('Record not found', 'record_not_found');
    }
    return status;
  }

  private readerFor(username: string): Reader {
    return { iri: this.options.accounts.urls.actor(username), username };
  }
}

function unprocessable(message: string): Error {
  return new FedpodHttpError(422, 'unprocessable_entity', message);
}
