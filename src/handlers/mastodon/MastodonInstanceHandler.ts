import type { AccountStore } from '../../plugins/accounts/AccountStore';
import type { Registrations } from '../../plugins/accounts/Registrations';
import type { InstanceFacts } from '../../plugins/mastodon/InstanceEntity';
import type { VapidKeys } from '../../plugins/mastodon/VapidKeys';
import { DEFAULT_INSTANCE_DESCRIPTION, DEFAULT_INSTANCE_TITLE, instanceV1, instanceV2 } from '../../plugins/mastodon/InstanceEntity';
import { readSoftwareInfo } from '../discovery/NodeInfoHandler';
import { sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { MastodonHandler } from './MastodonHandler';

export interface MastodonInstanceOptions {
  baseUrl: string;
  accounts: AccountStore;
  /** The server's name in apps. */
  title?: string;
  description?: string;
  /** Longest status text (as MastodonStatuses takes). */
  maxCharacters?: number;
  /** Who may sign up (`registrations`, `approval_required`); none: anyone. */
  registrations?: Registrations;
  /** The server's VAPID key pair (v2's `configuration.vapid`), when it sends Web Push. */
  vapid?: VapidKeys;
}

/**
 * GET /api/v1/instance, /api/v2/instance (by the route's name: `mastodon-instance-v1`, `-v2`) and
 * /api/v1/custom_emojis (`mastodon-custom-emojis`: none): what apps read before anything else.
 */
export class MastodonInstanceHandler extends MastodonHandler {
  private readonly options: MastodonInstanceOptions;
  private readonly software = readSoftwareInfo();

  public constructor(options: MastodonInstanceOptions) {
    super();
    this.options = options;
  }

  protected async serve({ response, operation }: OperationInput): Promise<void> {
    if (operation.route.name === 'mastodon-custom-emojis') {
      sendJson(response, 200, []);
      return;
    }
    const facts: InstanceFacts = {
      baseUrl: this.options.baseUrl,
      title: this.options.title ?? DEFAULT_INSTANCE_TITLE,
      description: this.options.description ?? DEFAULT_INSTANCE_DESCRIPTION,
      softwareVersion: this.software.version,
      sourceUrl: this.software.repository,
      userCount: (await this.options.accounts.list()).length,
      statusCount: 0,
      maxCharacters: this.options.maxCharacters ?? 5000,
      maxMediaAttachments: 4,
      registrations: this.options.registrations?.open ?? true,
      approvalRequired: this.options.registrations?.mode === 'approval',
      vapidKey: await this.options.vapid?.publicKey(),
    };
    sendJson(response, 200, operation.route.name === 'mastodon-instance-v2' ? instanceV2(facts) : instanceV1(facts),
      { 'cache-control': 'public, max-age=60' });
  }
}
