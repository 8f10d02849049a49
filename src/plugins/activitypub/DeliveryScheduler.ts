import type { Json } from './ActivityJson';

/**
 * Hands an activity over for delivery to remote recipients. Resolves once the hand-over is durable,
 * so an activity acknowledged to the client is delivered at least once.
 */
export interface DeliveryScheduler {
  schedule: (activity: Json, senderUsername: string, recipients: string[]) => Promise<void>;
}
