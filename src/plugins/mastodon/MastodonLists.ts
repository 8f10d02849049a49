import { recordNotFound } from './MastodonRecords';
import { v7 as uuidv7 } from 'uuid';
import { FileKeyValueStorage } from '../../storage/FileKeyValueStorage';
import { FedpodHttpError } from '../../util/HttpErrors';
import type { AccountDataRemover } from '../accounts/AccountDataRemover';

/** Mastodon's `replies_policy` of a list: which replies its timeline shows. */
export const REPLIES_POLICIES = [ 'followed', 'list', 'none' ] as const;
export type RepliesPolicy = typeof REPLIES_POLICIES[number];

/** A user's list: Mastodon's List entity and the actor IRIs of its members. */
export interface StoredList {
  id: string;
  title: string;
  replies_policy: RepliesPolicy;
  exclusive: boolean;
  members: string[];
}

/** Mastodon's List entity. */
export interface MastodonList {
  id: string;
  title: string;
  replies_policy: RepliesPolicy;
  exclusive: boolean;
}

/** Most lists a user keeps, and most members a list has (Mastodon's limits). */
const MAX_LISTS = 50;
const MAX_MEMBERS = 500;
const MAX_TITLE = 200;


/**
 * The users' lists (Mastodon's), one small JSON file per user under `<data-dir>/mastodon/lists/`:
 * read by every node sharing the data directory, never served to anyone but their owner. A list
 * names its members by actor IRI; its timeline is read from the owner's inbox and outbox.
 */
export class MastodonLists implements AccountDataRemover {
  private readonly storage: FileKeyValueStorage<StoredList[]>;

  public constructor(dataDir: string) {
    this.storage = new FileKeyValueStorage(dataDir, 'mastodon/lists');
  }

  public static entity(list: StoredList): MastodonList {
    return { id: list.id, title: list.title, replies_policy: list.replies_policy, exclusive: list.exclusive };
  }

  /** A deleted account's lists. */
  public async removeAccountData(username: string): Promise<void> {
    await this.storage.delete(username);
  }

  /** The user's lists, oldest first. */
  public async all(username: string): Promise<StoredList[]> {
    return (await this.storage.get(username)) ?? [];
  }

  /** One of the user's lists; 404 for an unknown id or another user's list. */
  public async get(username: string, id: string): Promise<StoredList> {
    const list = (await this.all(username)).find((candidate): boolean => candidate.id === id);
    if (!list) {
      throw recordNotFound();
    }
    return list;
  }

  public async create(username: string, input: Partial<Omit<StoredList, 'id' | 'members'>>): Promise<StoredList> {
    const lists = await this.all(username);
    if (lists.length >= MAX_LISTS) {
      throw new FedpodHttpError(422, 'Validation failed', `Validation failed: at most ${MAX_LISTS} lists`);
    }
    const list: StoredList = { id: uuidv7(), title: checkedTitle(input.title), replies_policy: input.replies_policy ?? 'list',
      exclusive: input.exclusive ?? false, members: []};
    await this.storage.set(username, [ ...lists, list ]);
    return list;
  }

  public async update(username: string, id: string, input: Partial<Omit<StoredList, 'id' | 'members'>>): Promise<StoredList> {
    return this.change(username, id, (list): StoredList => ({
      ...list,
      ...input.title === undefined ? {} : { title: checkedTitle(input.title) },
      ...input.replies_policy === undefined ? {} : { replies_policy: input.replies_policy },
      ...input.exclusive === undefined ? {} : { exclusive: input.exclusive },
    }));
  }

  public async delete(username: string, id: string): Promise<void> {
    await this.get(username, id);
    await this.storage.set(username, (await this.all(username)).filter((list): boolean => list.id !== id));
  }

  /** Adds members (actor IRIs) to a list; those already in it stay once. */
  public async addMembers(username: string, id: string, actors: readonly string[]): Promise<StoredList> {
    return this.change(username, id, (list): StoredList => {
      const members = [ ...new Set([ ...list.members, ...actors ]) ];
      if (members.length > MAX_MEMBERS) {
        throw new FedpodHttpError(422, 'Validation failed', `Validation failed: at most ${MAX_MEMBERS} accounts in a list`);
      }
      return { ...list, members };
    });
  }

  public async removeMembers(username: string, id: string, actors: readonly string[]): Promise<StoredList> {
    return this.change(username, id, (list): StoredList => ({ ...list, members: list.members.filter((member): boolean => !actors.includes(member)) }));
  }

  /** The user's lists that have this actor as a member. */
  public async listsWith(username: string, actor: string): Promise<StoredList[]> {
    return (await this.all(username)).filter((list): boolean => list.members.includes(actor));
  }

  /**
   * Whether the reader's home timeline leaves out posts by `author`: they are a member of one of the
   * reader's exclusive lists (MastodonStatuses' StatusFilter, for the home timeline only).
   */
  public async hides(author: string, reader: { username?: string }, timeline: 'home' | 'public' | 'list'): Promise<boolean> {
    if (timeline !== 'home' || reader.username === undefined) {
      return false;
    }
    return (await this.all(reader.username)).some((list): boolean => list.exclusive && list.members.includes(author));
  }

  private async change(username: string, id: string, change: (list: StoredList) => StoredList): Promise<StoredList> {
    const lists = await this.all(username);
    const index = lists.findIndex((list): boolean => list.id === id);
    if (index < 0) {
      throw recordNotFound();
    }
    const changed = change(lists[index]);
    await this.storage.set(username, lists.map((list, at): StoredList => at === index ? changed : list));
    return changed;
  }
}

function checkedTitle(title: string | undefined): string {
  const trimmed = (title ?? '').trim();
  if (trimmed.length === 0 || trimmed.length > MAX_TITLE) {
    throw new FedpodHttpError(422, 'Validation failed', `Validation failed: Title can't be blank or longer than ${MAX_TITLE} characters`);
  }
  return trimmed;
}
