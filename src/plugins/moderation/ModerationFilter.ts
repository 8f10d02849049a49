import type { AccountModerations } from './AccountModerations';
import type { DomainBlocks } from './DomainBlocks';
import type { Mutes } from './Mutes';
import type { UserDomainBlocks } from './UserDomainBlocks';

/** Who reads a timeline, as MastodonStatuses names them. */
interface TimelineReader {
  iri?: string;
  username?: string;
}

/**
 * What moderation hides from the Mastodon timelines (MastodonStatuses' StatusFilter): posts from a
 * suspended domain or account everywhere, from a silenced one in the public timelines only (those
 * who follow them still see them at home), and the accounts the reader muted, or whose domain the
 * reader blocked, from the reader's timelines; and the notifications of suspended accounts and
 * domains, of blocked domains, and of mutes that cover notifications.
 */
export class ModerationFilter {
  public constructor(
    private readonly domainBlocks: DomainBlocks,
    private readonly mutes?: Mutes,
    private readonly accounts?: AccountModerations,
    private readonly userDomainBlocks?: UserDomainBlocks,
  ) {}

  public async hides(author: string, reader: TimelineReader, timeline: 'home' | 'public' | 'list'): Promise<boolean> {
    const severity = (await this.domainBlocks.blockOf(author))?.severity;
    if (severity === 'suspend' || (severity === 'silence' && timeline === 'public')) {
      return true;
    }
    const measures = await this.accounts?.get(author);
    if (measures?.suspended !== undefined || (measures?.silenced !== undefined && timeline === 'public')) {
      return true;
    }
    if (reader.username === undefined) {
      return false;
    }
    return await this.userDomainBlocks?.blocks(reader.username, author) === true ||
      (this.mutes !== undefined && this.mutes.isMuted(reader.username, author));
  }

  /** Whether the user is not notified of what the actor did: suspended (domain or account), its domain blocked by the user, or muted with notifications. */
  public async hidesNotificationsFrom(actor: string, username?: string): Promise<boolean> {
    if (await this.domainBlocks.refuses(actor) || await this.accounts?.isSuspended(actor)) {
      return true;
    }
    if (username === undefined) {
      return false;
    }
    return await this.userDomainBlocks?.blocks(username, actor) === true ||
      (this.mutes !== undefined && this.mutes.isMuted(username, actor, true));
  }

  /** Whether the author's media are shown as sensitive whatever the post says (an operator marked the account). */
  public async marksSensitive(author: string): Promise<boolean> {
    return await this.accounts?.isSensitive(author) ?? false;
  }

  /**
   * Whether the author's media are left out: their domain is blocked with reject_media. Fedpod keeps
   * no copy of other servers' media, so rejecting them is not linking them.
   */
  public async rejectsMedia(author: string): Promise<boolean> {
    return (await this.domainBlocks.blockOf(author))?.rejectMedia === true;
  }
}
