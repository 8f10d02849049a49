import { recordNotFound } from '../../plugins/mastodon/MastodonRecords';
import type { MastodonAccounts } from '../../plugins/mastodon/MastodonAccounts';
import type { Mute, Mutes } from '../../plugins/moderation/Mutes';
import { badRequest, FedpodHttpError } from '../../util/HttpErrors';
import { sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { booleanField } from '../moderation/OperatorModerationHandler';
import { MastodonHandler } from './MastodonHandler';
import { readOAuthParams, single } from './OAuthParams';

/** The parts of Mastodon's Relationship entity that mutes decide; the others as a stranger's. */
function relationship(id: string, mute: Mute | undefined): Record<string, unknown> {
  return {
    id, following: false, showing_reblogs: false, notifying: false, languages: null, followed_by: false, blocking: false,
    blocked_by: false, muting: mute !== undefined, muting_notifications: mute?.notifications ?? false,
    muting_expires_at: mute?.expiresAt ?? null, requested: false, requested_by: false, domain_blocking: false, endorsed: false, note: '',
  };
}

/**
 * Mutes, by the route's name: `mastodon-account-mute` (POST `:id/mute`, with `notifications`,
 * default true, and `duration` in seconds, 0 for ever), `mastodon-account-unmute` (POST `:id/unmute`),
 * both answering the Relationship; `mastodon-mutes` (GET: the muted accounts, newest first).
 */
export class MastodonMutesHandler extends MastodonHandler {
  public constructor(
    private readonly accounts: MastodonAccounts,
    private readonly mutes: Mutes,
  ) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const username = operation.agent.username!;
    if (operation.route.name === 'mastodon-mutes') {
      const mutes = await this.mutes.list(username);
      const accounts = await Promise.all(mutes.map(async(mute) => this.accounts.accountOf(mute.actor).catch((): undefined => undefined)));
      sendJson(response, 200, accounts.filter((account): boolean => account !== undefined));
      return;
    }
    const id = operation.params.id ?? '';
    const account = await this.accounts.byId(id);
    if (!account) {
      throw recordNotFound(`No account ${id}.`);
    }
    if (operation.route.name === 'mastodon-account-unmute') {
      await this.mutes.unmute(username, account.uri);
      sendJson(response, 200, relationship(id, undefined));
      return;
    }
    const params = await readOAuthParams(request, operation.target.query);
    const duration = Number(single(params, 'duration') ?? 0);
    if (!Number.isInteger(duration) || duration < 0) {
      throw badRequest('duration must be a whole number of seconds (0: for ever).', 'invalid_duration');
    }
    if (account.uri === this.accounts.urls.actor(username)) {
      throw new FedpodHttpError(422, 'Validation failed', 'You cannot mute yourself.');
    }
    const mute = await this.mutes.mute(username, account.uri, booleanField(params, 'notifications') ?? true, duration);
    sendJson(response, 200, relationship(id, mute));
  }
}
