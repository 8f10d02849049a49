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
 * suspended domain everywhere, from a silenced one in the public timelines only (those who follow
 * them still see them at home), and the accounts the reader muted, or whose domain the reader
 * blocked, from the reader's timelines.
 */
export class ModerationFilter {
  public constructor(
    private readonly domainBlocks: DomainBlocks,
    private readonly mutes?: Mutes,
    private readonly userDomainBlocks?: UserDomainBlocks,
  ) {}

  public async hides(author: string, reader: TimelineReader, timeline: 'home' | 'public'): Promise<boolean> {
    const severity = (await this.domainBlocks.blockOf(author))?.severity;
    if (severity === 'suspend' || (severity === 'silence' && timeline === 'public')) {
      return true;
    }
    if (reader.username === undefined) {
      return false;
    }
    return await this.userDomainBlocks?.blocks(reader.username, author) === true ||
      (this.mutes !== undefined && this.mutes.isMuted(reader.username, author));
  }
}
