import type { ChangeCounter } from '../cluster/ChangeCounter';
import { hostOf, normalDomain } from './DomainBlocks';
import { WatchedRecords } from './WatchedRecords';

/** One domain a user blocked; `id` orders them for paging (Mastodon's numeric ids). */
export interface UserDomainBlock {
  domain: string;
  id: number;
  created: string;
}

/**
 * Users' own domain blocks (Mastodon's `/api/v1/domain_blocks`), one JSON file per user under
 * `<data-dir>/moderation/user-domain-blocks/`, held in memory and read again when the shared `changes`
 * counter (ModerationChanges) moved, so every node sees a block at once and an inbox POST reads no
 * file (each is checked against the recipient's blocks).
 * A block covers its domain and every subdomain, as the operator's do. They hide the domain's
 * accounts from that user's timelines (`ModerationFilter`); nobody else's change.
 */
export class UserDomainBlocks {
  private readonly records: WatchedRecords<UserDomainBlock[]>;

  public constructor(dataDir: string, changes?: ChangeCounter) {
    this.records = new WatchedRecords(dataDir, 'moderation/user-domain-blocks', changes);
  }

  /** The user's blocks, newest first. */
  public async list(username: string): Promise<UserDomainBlock[]> {
    return [ ...await this.of(username) ].sort((left, right): number => right.id - left.id);
  }

  /** Blocks a domain (a 400 when it is not one); blocking it again changes nothing. */
  public async add(username: string, domain: string, now = new Date()): Promise<UserDomainBlock> {
    const name = normalDomain(domain);
    const blocks = await this.list(username);
    const known = blocks.find((block): boolean => block.domain === name);
    if (known) {
      return known;
    }
    const block = { domain: name, id: (blocks[0]?.id ?? 0) + 1, created: now.toISOString() };
    await this.records.write(username, [ block, ...blocks ]);
    return block;
  }

  public async remove(username: string, domain: string): Promise<void> {
    const name = normalDomain(domain);
    const blocks = await this.list(username);
    const kept = blocks.filter((block): boolean => block.domain !== name);
    if (kept.length !== blocks.length) {
      await this.records.write(username, kept.length > 0 ? kept : undefined);
    }
  }

  /** Whether `username` blocked the domain of this actor (or URL), or a parent domain of it. */
  public async blocks(username: string, actor: string): Promise<boolean> {
    const blocks = await this.of(username);
    if (blocks.length === 0) {
      return false;
    }
    const host = hostOf(actor);
    return host !== undefined && blocks.some((block): boolean => host === block.domain || host.endsWith(`.${block.domain}`));
  }

  private async of(username: string): Promise<readonly UserDomainBlock[]> {
    return (await this.records.all()).get(username) ?? [];
  }
}
