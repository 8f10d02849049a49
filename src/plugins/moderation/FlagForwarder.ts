import type { ResourceGraphs } from '../../storage/ResourceGraphs';
import { documentMetadata } from '../../storage/ResourceGraphs';
import type { DeliveryScheduler } from '../activitypub/DeliveryScheduler';
import { ActorUrls } from '../activitypub/ActorUrls';
import { INSTANCE_ACTOR } from '../activitypub/fetch/InstanceActorInitializer';
import type { JsonLdParser } from '../ldp/JsonLdParser';
import { generatedName } from '../ldp/ResourceIds';
import type { Report } from './Reports';

/**
 * Sends a copy of a report to the reported account's server, as Mastodon does: a `Flag` from the
 * instance actor (so the reporter stays unnamed), its object the account and the reported posts, its
 * content the comment. It is stored as this server's activity (addressed to nobody, so only its
 * author reads it) and delivered signed through the delivery queue, to the account's (shared) inbox.
 */
export class FlagForwarder {
  private readonly urls: ActorUrls;

  public constructor(baseUrl: string, private readonly store: ResourceGraphs, private readonly parser: JsonLdParser,
    private readonly delivery: DeliveryScheduler) {
    this.urls = new ActorUrls(baseUrl);
  }

  /** The Flag's IRI. */
  public async forward(report: Report, now = new Date()): Promise<string> {
    const id = this.urls.url('activity', { id: generatedName(now) });
    const flag = {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id,
      type: 'Flag',
      actor: this.urls.actor(INSTANCE_ACTOR),
      object: [ report.target, ...report.statuses ],
      content: report.comment,
      published: now.toISOString(),
    };
    const data = await this.parser.toQuads(flag, id, { fediverse: true });
    await this.store.createInContainer(this.urls.url('activities'), id, data, documentMetadata(id, now), now);
    await this.delivery.schedule(flag, INSTANCE_ACTOR, [ report.target ]);
    return id;
  }
}
