import { getLoggerFor } from '@solid/community-server';
import type { Collections } from '../../../storage/Collections';
import { idsOf } from '../ActivityJson';
import { ActorUrls } from '../ActorUrls';
import { INSTANCE_ACTOR } from '../fetch/InstanceActorInitializer';
import type { ReceivedActivity } from './InboundActivityEffect';
import { InboundActivityEffect } from './InboundActivityEffect';

/**
 * Flag (a report of accounts or posts to this server's moderators, as Mastodon and others send it):
 * kept for the operator in the instance actor's inbox (`/actors/instance/inbox`), and logged at warn
 * level with what it reports (the reason quoted as JSON, so it cannot forge log lines), so a report is seen even where nobody reads that inbox. The reported
 * local actors are not told, as on Mastodon.
 */
export class FlagReceivedEffect extends InboundActivityEffect {
  protected readonly logger = getLoggerFor(this);
  public readonly types = [ 'Flag' ];
  private readonly urls: ActorUrls;

  public constructor(baseUrl: string, private readonly collections: Collections) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public async apply({ activity, sender, now }: ReceivedActivity): Promise<void> {
    await this.collections.add(this.urls.collection(INSTANCE_ACTOR, 'inbox'), activity.id as string, now);
    const reason = typeof activity.content === 'string' ? `: ${JSON.stringify(activity.content.slice(0, 200))}` : '';
    this.logger.warn(`Report ${String(activity.id)} from ${sender} about ${idsOf(activity.object).join(', ')}${reason}`);
  }
}
