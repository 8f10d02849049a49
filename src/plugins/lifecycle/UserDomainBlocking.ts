import type { Collections } from '../../storage/Collections';
import { ActorUrls } from '../activitypub/ActorUrls';
import { hostOf } from '../moderation/DomainBlocks';
import type { UserDomainBlock, UserDomainBlocks } from '../moderation/UserDomainBlocks';

/**
 * A user blocks a domain (Mastodon's `POST /api/v1/domain_blocks`): the block is kept
 * (UserDomainBlocks) and, as Mastodon does, the user's follows of the domain's accounts and their
 * follows of the user end (both collections, here; nothing is sent to the domain).
 */
export class UserDomainBlocking {
  private readonly urls: ActorUrls;

  public constructor(baseUrl: string, private readonly blocks: UserDomainBlocks, private readonly collections: Collections) {
    this.urls = new ActorUrls(baseUrl);
  }

  public async block(username: string, domain: string): Promise<UserDomainBlock> {
    const block = await this.blocks.add(username, domain);
    for (const name of [ 'following', 'followers' ] as const) {
      const collection = this.urls.collection(username, name);
      for (const actor of await this.collections.all(collection)) {
        const host = hostOf(actor);
        if (host !== undefined && (host === block.domain || host.endsWith(`.${block.domain}`))) {
          await this.collections.remove(collection, actor);
        }
      }
    }
    return block;
  }

  public async unblock(username: string, domain: string): Promise<void> {
    await this.blocks.remove(username, domain);
  }

  public async list(username: string): Promise<UserDomainBlock[]> {
    return this.blocks.list(username);
  }
}
