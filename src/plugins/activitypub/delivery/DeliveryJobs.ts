/** Jobs of the federation queues. Payloads are small: activities are read back from the store. */

/** An activity to hand to its addressees: resolved into local and per-inbox jobs. */
export interface FanOutJob {
  activity: string;
  /** The local sender's username. */
  sender: string;
  recipients: string[];
}

/** One signed POST of an activity to one remote inbox (a shared inbox serves many recipients). */
export interface DeliveryJob {
  activity: string;
  sender: string;
  inbox: string;
}

/** An activity from one local actor to another: processed in-process, no HTTP. */
export interface LocalDeliveryJob {
  activity: string;
  recipient: string;
}

/** An activity that arrived in an inbox with a valid signature, waiting to be processed. */
export interface InboxJob {
  activity: Record<string, unknown>;
  /** The local username of a personal inbox, absent for the shared inbox. */
  inboxOwner?: string;
}

export const QUEUES = {
  fanOut: 'ap-fanout',
  delivery: 'ap-delivery',
  local: 'ap-local',
  inbox: 'ap-inbox',
} as const;
