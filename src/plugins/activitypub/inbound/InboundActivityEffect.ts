import type { Json } from '../ActivityJson';

/** A received activity whose signature, origin and sender's rights have been checked, with its sender. */
export interface ReceivedActivity {
  activity: Json;
  /** The activity's actor, who signed it. */
  sender: string;
  /** When it is processed (the time given to what it adds). */
  now: Date;
}

/**
 * What an activity type received in an inbox does to this server's data, one class per kind of
 * activity, registered in config (config/parts/activitypub/components/federation.json) and chosen by type by
 * InboxService, the way webhook actions are. Every activity is stored and listed in its recipients'
 * inboxes whatever its type; an effect adds only what the type means. Effects run at least once:
 * each must be idempotent (InboxService runs one again when a run was cut short).
 */
export abstract class InboundActivityEffect {
  /** The ActivityStreams types (compact names) this effect handles. */
  public abstract readonly types: string[];

  /**
   * Whether this activity of one of `types` has an effect at all: one that does not (most Creates,
   * for an effect on votes) is stored done at once, without a pending mark to clear.
   */
  public appliesTo(_activity: Json): boolean {
    return true;
  }

  public abstract apply(received: ReceivedActivity): Promise<void>;
}
