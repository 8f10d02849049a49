import type { DomainBlocks } from './DomainBlocks';

/** Who reads a timeline, as MastodonStatuses names them. */
interface TimelineReader {
  iri?: string;
  username?: string;
}

/**
 * What moderation hides from the Mastodon timelines (MastodonStatuses' StatusFilter): posts from a
 * suspended domain everywhere, from a silenced one in the public timelines only (those who follow
 * them still see them at home).
 */
export class ModerationFilter {
  public constructor(private readonly domainBlocks: DomainBlocks) {}

  public async hides(author: string, reader: TimelineReader, timeline: 'home' | 'public'): Promise<boolean> {
    const severity = (await this.domainBlocks.blockOf(author))?.severity;
    return severity === 'suspend' || (severity === 'silence' && timeline === 'public');
  }
}
