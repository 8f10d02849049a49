import type { Collections } from '../../storage/Collections';
import { notFound } from '../../util/HttpErrors';
import { blockedCollection } from '../activitypub/outbound/BlockSentEffect';
import type { MastodonAccount } from '../mastodon/AccountEntity';
import type { MastodonAccounts } from '../mastodon/MastodonAccounts';
import { bookmarksOf } from '../mastodon/MastodonStatuses';
import type { Mutes } from '../moderation/Mutes';
import type { UserDomainBlocks } from '../moderation/UserDomainBlocks';

/** The lists a user exports, by the file names Mastodon gives them. */
export const EXPORT_FILES = [
  'following_accounts.csv', 'blocked_accounts.csv', 'muted_accounts.csv', 'bookmarks.csv', 'blocked_domains.csv',
] as const;
export type ExportFile = typeof EXPORT_FILES[number];

/** One CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
function field(value: string): string {
  return /[",\r\n]/u.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

function csv(rows: string[][]): string {
  return rows.map((row): string => `${row.map(field).join(',')}\n`).join('');
}

/**
 * A user's follows, blocks, mutes, bookmarks and blocked domains as the CSV files Mastodon exports (its
 * `app/models/export.rb`), so that they import into Mastodon or another Fedpod: accounts by their
 * full address (`user@host`, this server's too), statuses by their URI, newest first.
 */
export class AccountExports {
  private readonly host: string;

  public constructor(
    private readonly accounts: MastodonAccounts,
    private readonly collections: Collections,
    private readonly mutes: Mutes,
    private readonly domainBlocks: UserDomainBlocks,
  ) {
    this.host = new URL(accounts.urls.base).host;
  }

  public async csv(username: string, file: string): Promise<string> {
    const actor = this.accounts.urls.actor(username);
    switch (file as ExportFile) {
      case 'following_accounts.csv': {
        const following = await this.newestFirst(this.accounts.urls.collection(username, 'following'));
        // Fedpod keeps no per-follow options: boosts shown and no notification, as Mastodon's defaults.
        return csv([ [ 'Account address', 'Show boosts', 'Notify on new posts', 'Languages' ],
          ...await this.addresses(following, (address): string[] => [ address, 'true', 'false', '' ]) ]);
      }
      case 'blocked_accounts.csv':
        return csv(await this.addresses(await this.newestFirst(blockedCollection(actor)), (address): string[] => [ address ]));
      case 'muted_accounts.csv': {
        const mutes = await this.mutes.list(username);
        const rows: string[][] = [ [ 'Account address', 'Hide notifications' ] ];
        for (const mute of mutes) {
          rows.push([ await this.addressOf(mute.actor), String(mute.notifications) ]);
        }
        return csv(rows);
      }
      case 'bookmarks.csv':
        return csv((await this.newestFirst(bookmarksOf(actor))).map((iri): string[] => [ iri ]));
      case 'blocked_domains.csv':
        // Mastodon's `to_blocked_domains_csv`: one domain a line, no header.
        return csv((await this.domainBlocks.list(username)).map((block): string[] => [ block.domain ]));
      default:
        throw notFound(`No export ${file}; there are ${EXPORT_FILES.join(', ')}.`, 'not_found');
    }
  }

  private async newestFirst(collection: string): Promise<string[]> {
    return (await this.collections.all(collection)).reverse();
  }

  private async addresses(actors: string[], row: (address: string) => string[]): Promise<string[][]> {
    const cache = new Map<string, Promise<MastodonAccount>>();
    const rows: string[][] = [];
    for (const actor of actors) {
      rows.push(row(await this.addressOf(actor, cache)));
    }
    return rows;
  }

  /** `user@host`: Mastodon's acct, with this server's host added to its own accounts. */
  private async addressOf(actor: string, cache?: Map<string, Promise<MastodonAccount>>): Promise<string> {
    const { acct } = await this.accounts.accountOf(actor, cache);
    return acct.includes('@') ? acct : `${acct}@${this.host}`;
  }
}
