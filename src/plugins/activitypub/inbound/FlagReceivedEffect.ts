import { getLoggerFor } from '@solid/community-server';
import type { Collections } from '../../../storage/Collections';
import type { AccountModerationService } from '../../moderation/AccountModerationService';
import type { DomainBlocks } from '../../moderation/DomainBlocks';
import { idsOf } from '../ActivityJson';
import { ActorUrls } from '../ActorUrls';
import { INSTANCE_ACTOR } from '../fetch/InstanceActorInitializer';
import type { ReceivedActivity } from './InboundActivityEffect';
import { InboundActivityEffect } from './InboundActivityEffect';

/**
 * Flag (a report of accounts or posts to this server's moderators, as Mastodon and others send it):
 * kept for the operator in the instance actor's inbox (`/actors/instance/inbox`), and logged at warn
 * level with what it reports (the reason quoted as JSON, so it cannot forge log lines), so a report is seen even where nobody reads that inbox.
 * Where the setup has moderation (`moderation`), each reported local account also gets a report in
 * the operators' queue, with the reported posts of this server. The reported local actors are not
 * told, as on Mastodon.
 */
export class FlagReceivedEffect extends InboundActivityEffect {
  protected readonly logger = getLoggerFor(this);
  public readonly types = [ 'Flag' ];
  private readonly urls: ActorUrls;

  /** @param domainBlocks - The operator's domain blocks: a Flag from a domain blocked with reject_reports is dropped. */
  public constructor(baseUrl: string, private readonly collections: Collections, private readonly moderation?: AccountModerationService,
    private readonly domainBlocks?: DomainBlocks) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public async apply({ activity, sender, now }: ReceivedActivity): Promise<void> {
    if ((await this.domainBlocks?.blockOf(sender))?.rejectReports === true) {
      this.logger.info(`Report ${String(activity.id)} from ${sender} dropped: its domain's reports are rejected`);
      return;
    }
    await this.collections.add(this.urls.collection(INSTANCE_ACTOR, 'inbox'), activity.id as string, now);
    const reason = typeof activity.content === 'string' ? `: ${JSON.stringify(activity.content.slice(0, 200))}` : '';
    this.logger.warn(`Report ${String(activity.id)} from ${sender} about ${idsOf(activity.object).join(', ')}${reason}`);
    if (!this.moderation) {
      return;
    }
    const objects = idsOf(activity.object);
    const local = objects.filter((iri): boolean => iri.startsWith(this.urls.base));
    const actors = local.filter((iri): boolean => this.urls.usernameOf(iri) !== undefined);
    const accounts = actors.filter((iri): boolean => this.urls.usernameOf(iri) !== INSTANCE_ACTOR);
    const statuses = local.filter((iri): boolean => !actors.includes(iri));
    const existing = await this.moderation.reports.list({ reporter: sender });
    for (const target of accounts) {
      // A Flag delivered again (a retried job) files nothing new.
      if (!existing.some((report): boolean => report.flag === activity.id && report.target === target)) {
        await this.moderation.report(sender, { target, statuses, comment: typeof activity.content === 'string' ?
          activity.content.slice(0, 1000) : '' }, activity.id as string);
      }
    }
  }
}
