import type { Json } from '../ActivityJson';

/** An activity a local actor posted to its outbox, checked and with its ids minted, not yet stored. */
export interface OutgoingActivity {
  /** The activity as it will be stored and delivered; an effect may complete it in place. */
  activity: Json;
  /** The outbox owner's username. */
  username: string;
  /** The outbox owner's actor IRI (the activity's actor). */
  actor: string;
  /** When it was posted (its `published`). */
  now: Date;
}

/**
 * What an activity type posted to an outbox does to this server's data, one class per kind of
 * activity, registered in config (`effects` of OutboxService in config/parts/activitypub/components/federation.json)
 * and chosen by type, as InboundActivityEffect is for the inbox. It runs before the activity is
 * stored or delivered: it refuses (an HttpError, nothing changed) what the actor may not do, may
 * complete the activity (embed the Follow it answers, address it), and makes its changes.
 */
export abstract class OutboundActivityEffect {
  /** The ActivityStreams types (compact names) this effect handles. */
  public abstract readonly types: string[];

  public abstract apply(outgoing: OutgoingActivity): Promise<void>;
}
