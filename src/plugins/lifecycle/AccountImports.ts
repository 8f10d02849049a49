import { randomUUID } from 'node:crypto';
import type { Collections } from '../../storage/Collections';
import { FileKeyValueStorage } from '../../storage/FileKeyValueStorage';
import { parseCsv } from '../../util/Csv';
import { messageOf } from '../../util/Errors';
import { badRequest, notFound } from '../../util/HttpErrors';
import { blockedCollection } from '../activitypub/outbound/BlockSentEffect';
import type { MastodonAccounts } from '../mastodon/MastodonAccounts';
import type { MastodonFollows } from '../mastodon/MastodonFollows';
import type { MastodonRecords } from '../mastodon/MastodonRecords';
import { bookmarksOf } from '../mastodon/MastodonStatuses';
import type { MastodonThreads } from '../mastodon/MastodonThreads';
import type { Mutes } from '../moderation/Mutes';
import type { JobQueue } from '../queue/JobQueue';
import type { JobQueueFactory } from '../queue/JobQueueFactory';
import type { UserDomainBlocking } from './UserDomainBlocking';

/** What can be imported, by the names of Mastodon's import types. */
export const IMPORT_KINDS = [ 'following', 'blocks', 'mutes', 'bookmarks', 'domain_blocks' ] as const;
export type ImportKind = typeof IMPORT_KINDS[number];
export type ImportMode = 'merge' | 'overwrite';

/** The first cells of the header rows Mastodon writes (and accepts) in its CSV files. */
const HEADERS = new Set([ 'account address', '#domain', '#uri' ]);
const QUEUE = 'account-imports';
/** Progress is written after this many rows: a restart redoes at most these (every step is idempotent). */
const SAVE_EVERY = 10;

export interface ImportRow {
  /** 1-based line of the file. */
  line: number;
  value: string;
  /** Mutes only: whether notifications are hidden too. */
  notifications?: boolean;
}

export interface FailedRow {
  line: number;
  value: string;
  error: string;
}

export interface AccountImport {
  id: string;
  username: string;
  kind: ImportKind;
  mode: ImportMode;
  state: 'queued' | 'running' | 'finished';
  created: string;
  finished?: string;
  rows: ImportRow[];
  /** Rows handled so far (the next one to run is `rows[done]`). */
  done: number;
  imported: number;
  failed: FailedRow[];
  /** What the imported rows name (actor IRIs, status IRIs, domains): an overwrite keeps these only. */
  kept: string[];
  /** Entries an overwrite took away. */
  removed: number;
}

/** The status endpoint's view of an import: counts and failed rows, not the rows themselves. */
export type ImportStatus = Omit<AccountImport, 'rows' | 'kept' | 'username'> & { total: number };

export interface AccountImportsOptions {
  dataDir: string;
  queues: JobQueueFactory;
  accounts: MastodonAccounts;
  follows: MastodonFollows;
  threads: MastodonThreads;
  records: MastodonRecords;
  mutes: Mutes;
  domainBlocks: UserDomainBlocking;
  collections: Collections;
  /** Rows one import may hold (Mastodon: 20,000 for follows). */
  maxRows?: number;
}

/**
 * Imports of Mastodon's CSV exports (follows, blocks, mutes, bookmarks, blocked domains) into a
 * user's account, as Mastodon's settings do: the file's rows are stored with the import's state
 * (`<data-dir>/imports/`) and run by a job on the server's durable queue, so a large import goes on
 * after a restart where it stopped. Each row goes through the services the Mastodon API uses: a
 * follow is a Follow through the outbox (handles resolved by WebFinger through the outbound guard),
 * blocks are Blocks, mutes, bookmarks and domain blocks their stores. A row that fails is recorded
 * with its reason and the import goes on; `overwrite` then removes what the file does not name.
 */
export class AccountImports {
  private readonly storage: FileKeyValueStorage<AccountImport>;
  private readonly maxRows: number;
  private queueInstance?: JobQueue<{ id: string }>;

  public constructor(private readonly options: AccountImportsOptions) {
    this.storage = new FileKeyValueStorage(options.dataDir, 'imports');
    this.maxRows = options.maxRows ?? 20_000;
  }

  /** The queue of imports (opened on first use). */
  public get queue(): JobQueue<{ id: string }> {
    this.queueInstance ??= this.options.queues.create<{ id: string }>(QUEUE);
    return this.queueInstance;
  }

  /** Stores the file's rows and queues their import; a 400 for a file with no rows or too many. */
  public async start(username: string, kind: string, mode: string, text: string, now = new Date()): Promise<ImportStatus> {
    if (!(IMPORT_KINDS as readonly string[]).includes(kind)) {
      throw notFound(`No import ${kind}; there are ${IMPORT_KINDS.join(', ')}.`, 'not_found');
    }
    if (mode !== 'merge' && mode !== 'overwrite') {
      throw badRequest('mode is merge or overwrite.', 'invalid_mode');
    }
    const rows = this.rowsOf(kind as ImportKind, text);
    if (rows.length > this.maxRows) {
      throw badRequest(`The file has ${rows.length} rows; at most ${this.maxRows} are imported at once.`, 'too_many_rows');
    }
    const record: AccountImport = { id: randomUUID(), username, kind: kind as ImportKind, mode, state: 'queued',
      created: now.toISOString(), rows, done: 0, imported: 0, failed: [], kept: [], removed: 0 };
    await this.storage.set(record.id, record);
    await this.queue.add({ id: record.id }, { jobId: record.id });
    return this.statusOf(record);
  }

  /** The user's import; 404 for another user's, as for none. */
  public async status(username: string, id: string): Promise<ImportStatus> {
    const record = /^[\da-f-]{36}$/u.test(id) ? await this.storage.get(id) : undefined;
    if (!record || record.username !== username) {
      throw notFound('No such import.', 'not_found');
    }
    return this.statusOf(record);
  }

  /** Runs (or goes on with) an import: the queue's job handler. */
  public async run(id: string): Promise<void> {
    const record = await this.storage.get(id);
    if (!record || record.state === 'finished') {
      return;
    }
    record.state = 'running';
    while (record.done < record.rows.length) {
      const row = record.rows[record.done];
      try {
        record.kept.push(await this.apply(record, row));
        record.imported += 1;
      } catch (error: unknown) {
        record.failed.push({ line: row.line, value: row.value, error: messageOf(error) });
      }
      record.done += 1;
      if (record.done % SAVE_EVERY === 0) {
        await this.storage.set(id, record);
      }
    }
    if (record.mode === 'overwrite') {
      record.removed = await this.prune(record);
    }
    record.state = 'finished';
    record.finished = new Date().toISOString();
    await this.storage.set(id, record);
  }

  private statusOf(record: AccountImport): ImportStatus {
    const { rows, kept, username, ...status } = record;
    void kept;
    void username;
    return { ...status, total: rows.length };
  }

  private rowsOf(kind: ImportKind, text: string): ImportRow[] {
    const parsed = parseCsv(text);
    if (parsed.length > 0 && HEADERS.has(parsed[0].cells[0].trim().toLowerCase())) {
      parsed.shift();
    }
    return parsed.map(({ line, cells }): ImportRow => ({ line, value: cells[0].trim(),
      ...kind === 'mutes' ? { notifications: cells[1]?.trim().toLowerCase() !== 'false' } : {}}));
  }

  /** Imports one row; what it names (for an overwrite). Throws what makes the row fail. */
  private async apply(record: AccountImport, row: ImportRow): Promise<string> {
    const { username, kind } = record;
    const { accounts, follows, mutes, threads, records, domainBlocks } = this.options;
    if (kind === 'domain_blocks') {
      return (await domainBlocks.block(username, row.value)).domain;
    }
    if (kind === 'bookmarks') {
      if (!/^https?:\/\//u.test(row.value)) {
        throw new Error('Not a status URI');
      }
      await threads.bookmark(username, await records.idOf(row.value), true);
      return row.value;
    }
    const account = await accounts.lookup(row.value);
    if (!account) {
      throw new Error('No such account');
    }
    if (kind === 'following') {
      await follows.follow(username, account.id);
    } else if (kind === 'blocks') {
      await follows.block(username, account.id);
    } else {
      await mutes.mute(username, account.uri, row.notifications);
    }
    return account.uri;
  }

  /** Overwrite: removes what the user had of this kind and the file does not name; how many. */
  private async prune(record: AccountImport): Promise<number> {
    const { username, kind } = record;
    const { accounts, follows, mutes, collections, domainBlocks } = this.options;
    const kept = new Set(record.kept);
    const actor = accounts.urls.actor(username);
    let current: string[];
    switch (kind) {
      case 'following': current = await collections.all(accounts.urls.collection(username, 'following')); break;
      case 'blocks': current = await collections.all(blockedCollection(actor)); break;
      case 'mutes': current = (await mutes.list(username)).map((mute): string => mute.actor); break;
      case 'bookmarks': current = await collections.all(bookmarksOf(actor)); break;
      default: current = (await domainBlocks.list(username)).map((block): string => block.domain);
    }
    const gone = current.filter((entry): boolean => !kept.has(entry));
    for (const entry of gone) {
      if (kind === 'following' || kind === 'blocks') {
        await follows.undo(username, await accounts.idOf(entry), kind === 'following' ? 'Follow' : 'Block');
      } else if (kind === 'mutes') {
        await mutes.unmute(username, entry);
      } else if (kind === 'bookmarks') {
        await collections.remove(bookmarksOf(actor), entry);
      } else {
        await domainBlocks.unblock(username, entry);
      }
    }
    return gone.length;
  }
}
