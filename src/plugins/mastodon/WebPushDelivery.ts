import { getLoggerFor } from '@solid/community-server';
import { Parser } from 'htmlparser2';
import webPush from 'web-push';
import { messageOf } from '../../util/Errors';
import type { Collections } from '../../storage/Collections';
import type { RemoteFetcher } from '../activitypub/fetch/RemoteFetcher';
import { RemoteFetchError } from '../activitypub/fetch/FetchErrors';
import type { JobQueue, QueuedJob } from '../queue/JobQueue';
import type { JobQueueFactory } from '../queue/JobQueueFactory';
import { PermanentJobError } from '../queue/PermanentJobError';
import type { MastodonAccounts } from './MastodonAccounts';
import type { MastodonNotification, MastodonNotifications, NewNotification } from './MastodonNotifications';
import type { MastodonOAuthService } from './MastodonOAuthService';
import { grantsAny } from './OAuthScopes';
import type { PushAlert, PushSubscription, PushSubscriptions } from './PushSubscriptions';
import type { VapidKeys } from './VapidKeys';

/** One push to send: a notification to one subscription (ids only: the queue's journal holds no token and no text). */
export interface WebPushJob {
  username: string;
  subscription: string;
  notification: string;
}

/** Mastodon's push payload (decrypted by the app's service worker or its relay). */
export interface WebPushPayload {
  access_token: string;
  preferred_locale: string;
  notification_id: string;
  notification_type: string;
  icon: string;
  title: string;
  body: string;
}

export interface WebPushDeliveryOptions {
  /** The server's base URL: the VAPID subject when it is https (else `mailto:` its host's postmaster). */
  baseUrl: string;
  notifications: MastodonNotifications;
  subscriptions: PushSubscriptions;
  vapid: VapidKeys;
  oauth: MastodonOAuthService;
  /** Sends the pushes: the outbound guard's client, as every request a request can cause. */
  fetcher: RemoteFetcher;
  queues: JobQueueFactory;
  collections: Collections;
  accounts: MastodonAccounts;
  /** How long a push service keeps a push for an offline device, in seconds (Mastodon: 48 h). */
  ttlSeconds?: number;
}

const QUEUE = 'web-push';
const MAX_BODY_CHARACTERS = 140;

/** Mastodon's English titles (notification_mailer.*.subject). */
const TITLES: Record<string, (name: string) => string> = {
  mention: (name): string => `You were mentioned by ${name}`,
  reblog: (name): string => `${name} boosted your post`,
  favourite: (name): string => `${name} favorited your post`,
  follow: (name): string => `${name} is now following you`,
  follow_request: (name): string => `Pending follower: ${name}`,
  update: (name): string => `${name} edited a post`,
  status: (name): string => `${name} just posted`,
  poll: (): string => 'A poll has ended',
};

/**
 * Web Push of the Mastodon API (RFC 8030): each notification made for a user (MastodonNotifications)
 * is queued, on the backend's durable queue `web-push`, once for each of the user's subscriptions
 * whose alerts and policy take it; the job encrypts Mastodon's payload for the subscription
 * (RFC 8291, `aes128gcm`), signs the request with the server's VAPID key (RFC 8292) — both by the
 * web-push library, which only builds the request — and sends it through RemoteFetcher, so the
 * outbound guard checks the push service's address as any other. Failures are retried as the
 * queue's other jobs; a push service's 404 or 410 (the subscription expired) deletes the
 * subscription. A job reads the notification again when it runs, as its user would read it, so
 * a push never says more than the user may read (nothing once it is dismissed or its post gone),
 * and a subscription whose token was revoked (or lost the `push` scope) is deleted unsent.
 */
export class WebPushDelivery {
  protected readonly logger = getLoggerFor(this);
  private readonly options: WebPushDeliveryOptions;
  private queueInstance?: JobQueue<WebPushJob>;

  public constructor(options: WebPushDeliveryOptions) {
    this.options = options;
    options.notifications.listen((username, notification): void => {
      this.queueFor(username, notification).catch((error: unknown): void => {
        this.logger.warn(`Could not queue the Web Push of notification ${notification.id} for ${username}: ${messageOf(error)}`);
      });
    });
  }

  /** The queue of pushes (opened on first use). */
  public get queue(): JobQueue<WebPushJob> {
    this.queueInstance ??= this.options.queues.create<WebPushJob>(QUEUE);
    return this.queueInstance;
  }

  /**
   * Queues the notification's push to each of the user's subscriptions that asks for it, by its type
   * and who caused it: nothing is built here (the job reads the notification as its user would).
   */
  public async queueFor(username: string, notification: Pick<NewNotification, 'id' | 'type' | 'actor' | 'kept'>): Promise<void> {
    const subscriptions = await this.options.subscriptions.ofUser(username);
    for (const subscription of subscriptions) {
      if (subscription.alerts[notification.type as PushAlert] !== true ||
        !await this.policyAllows(subscription, notification.actor) || !await notification.kept()) {
        continue;
      }
      await this.queue.add({ username, subscription: subscription.id, notification: notification.id },
        { jobId: `${subscription.id}.${notification.id}` });
    }
  }

  /** Sends one push: the queue's job handler. Throws to be retried. */
  public async run(job: QueuedJob<WebPushJob>): Promise<void> {
    const { username } = job.data;
    const subscription = (await this.options.subscriptions.ofUser(username))
      .find((candidate): boolean => candidate.id === job.data.subscription);
    if (!subscription) {
      // Deleted or replaced since.
      return;
    }
    const holder = await this.options.oauth.holder(subscription.token);
    if (holder?.username !== username || !grantsAny(holder.scopes, [ 'push' ])) {
      await this.options.subscriptions.delete(username, subscription.token);
      return;
    }
    const notification = await this.options.notifications.get(username, job.data.notification);
    if (!notification) {
      return;
    }
    const status = await this.send(subscription, payloadOf(subscription, notification));
    if (status === 404 || status === 410) {
      this.logger.info(`The push service ended a subscription of ${username} (${status}): deleted`);
      await this.options.subscriptions.delete(username, subscription.token);
      return;
    }
    if (status >= 200 && status < 300) {
      return;
    }
    const message = `The push service answered ${status}`;
    throw PermanentJobError.isPermanentStatus(status) ? new PermanentJobError(message) : new Error(message);
  }

  /** Encrypts and signs with web-push, sends through the fetcher; the push service's status. */
  private async send(subscription: PushSubscription, payload: WebPushPayload): Promise<number> {
    const vapid = await this.options.vapid.keyPair();
    const details = webPush.generateRequestDetails({ endpoint: subscription.endpoint, keys: subscription.keys },
      JSON.stringify(payload), {
        vapidDetails: { subject: this.subject(), publicKey: vapid.publicKey, privateKey: vapid.privateKey },
        contentEncoding: 'aes128gcm',
        TTL: this.options.ttlSeconds ?? 48 * 60 * 60,
        urgency: 'normal',
      });
    const headers: Record<string, string> = {};
    for (const [ name, value ] of Object.entries(details.headers)) {
      // The fetcher counts the body itself.
      if (name.toLowerCase() !== 'content-length') {
        headers[name] = String(value);
      }
    }
    try {
      return (await this.options.fetcher.post(details.endpoint, details.body ?? Buffer.alloc(0), headers)).status;
    } catch (error: unknown) {
      if (error instanceof RemoteFetchError && !error.retryable) {
        throw new PermanentJobError(error.message, { cause: error });
      }
      throw error;
    }
  }

  private subject(): string {
    const url = new URL(this.options.baseUrl);
    // web-push takes an https or mailto: subject only.
    return url.protocol === 'https:' ? url.origin : `mailto:postmaster@${url.hostname}`;
  }

  private async policyAllows(subscription: PushSubscription, actor: string): Promise<boolean> {
    const { urls } = this.options.accounts;
    switch (subscription.policy) {
      case 'none':
        return false;
      case 'followed':
        return this.options.collections.contains(urls.collection(subscription.username, 'following'), actor);
      case 'follower':
        return this.options.collections.contains(urls.collection(subscription.username, 'followers'), actor);
      default:
        return true;
    }
  }
}

/** Mastodon's payload: who and what, in as much as the notification (already read as its user may) says. */
export function payloadOf(subscription: PushSubscription, notification: MastodonNotification): WebPushPayload {
  const { account, status } = notification;
  const name = account.display_name || account.username;
  const text = status ? status.spoiler_text || plainText(status.content) : plainText(account.note);
  return {
    access_token: subscription.token,
    preferred_locale: 'en',
    notification_id: notification.id,
    notification_type: notification.type,
    icon: account.avatar_static,
    title: (TITLES[notification.type] ?? ((who: string): string => `New notification from ${who}`))(name),
    body: truncate(text, MAX_BODY_CHARACTERS),
  };
}

/** The text of a status's or note's HTML: paragraphs and line breaks as line breaks. */
export function plainText(html: string): string {
  const parts: string[] = [];
  const parser = new Parser({
    ontext: (text): void => {
      parts.push(text);
    },
    onopentag: (name): void => {
      if ((name === 'br' || name === 'p') && parts.length > 0) {
        parts.push('\n');
      }
    },
  }, { decodeEntities: true });
  parser.end(html);
  return parts.join('').replaceAll(/\n{2,}/gu, '\n').trim();
}

function truncate(text: string, length: number): string {
  const characters = [ ...text ];
  return characters.length <= length ? text : `${characters.slice(0, length - 1).join('')}…`;
}
