import { FileKeyValueStorage } from '../../storage/FileKeyValueStorage';
import { hostOf, normalDomain } from './DomainBlocks';

/** One domain a user blocked; `id` orders them for paging (Mastodon's numeric ids). */
export interface UserDomainBlock {
  domain: string;
  id: number;
  created: string;
}

/**
 * Users' own domain blocks (Mastodon's `/api/v1/domain_blocks`), one JSON file per user under
 * `<data-dir>/moderation/user-domain-blocks/`, read on each use so every node sees a block at once.
 * A block covers its domain and every subdomain, as the operator's do. They hide the domain's
 * accounts from that user's timelines (`ModerationFilter`); nobody else's change.
 */
export class UserDomainBlocks {
  private readonly storage: FileKeyValueStorage<UserDomainBlock[]>;

  public constructor(dataDir: string) {
    this.storage = new FileKeyValueStorage(dataDir, 'moderation/user-domain-blocks');
  }

  /** The user's blocks, newest first. */
  public async list(username: string): Promise<UserDomainBlock[]> {
    return ((await this.storage.get(username)) ?? []).sort((left, right): number => right.id - left.id);
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
    await this.storage.set(username, [ block, ...blocks ]);
    return block;
  }

  public async remove(username: string, domain: string): Promise<void> {
    const name = normalDomain(domain);
    const blocks = await this.list(username);
    const kept = blocks.filter((block): boolean => block.domain !== name);
    if (kept.length !== blocks.length) {
      await this.storage.set(username, kept);
    }
  }

  /** Whether `username` blocked the domain of this actor (or URL), or a parent domain of it. */
  public async blocks(username: string, actor: string): Promise<boolean> {
    const blocks = await this.storage.get(username);
    if (!blocks || blocks.length === 0) {
      return false;
    }
    const host = hostOf(actor);
    return host !== undefined && blocks.some((block): boolean => host === block.domain || host.endsWith(`.${block.domain}`));
  }
}
