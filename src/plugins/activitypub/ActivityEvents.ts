import { getLoggerFor } from '@solid/community-server';
import { messageOf } from '../../util/Errors';
import type { Json } from './ActivityJson';

/** An activity that joined local actors' collections: their inboxes (delivered) or its author's outbox (posted). */
export interface ActivityEvent {
  activity: Json;
  /** `inbox`: it reached the inboxes of `usernames`; `outbox`: `usernames` (one) posted it. */
  box: 'inbox' | 'outbox';
  usernames: string[];
}

export type ActivityListener = (event: ActivityEvent) => Promise<void>;

/**
 * Tells who listens (the Mastodon API's notifications and streaming) that an activity reached local
 * inboxes or was posted to an outbox, on this node. The inbox and outbox never wait for listeners:
 * each runs after the activity is stored, its failure logged, so a slow listener costs the inbox
 * path nothing but the call. With nobody listening an event costs a check.
 */
export class ActivityEvents {
  protected readonly logger = getLoggerFor(this);
  private readonly listeners: ActivityListener[] = [];

  public listen(listener: ActivityListener): void {
    this.listeners.push(listener);
  }

  public emit(event: ActivityEvent): void {
    if (event.usernames.length === 0) {
      return;
    }
    for (const listener of this.listeners) {
      listener(event).catch((error: unknown): void => {
        this.logger.warn(`A listener failed on ${String(event.activity.id)}: ${messageOf(error)}`);
      });
    }
  }
}
