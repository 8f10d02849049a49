import type { AccessPolicy } from './AccessPolicy';
import { wacAllow, WRITE_METHODS } from './AccessPolicy';
import type { Operation } from '../http/Operation';
import { refusal } from './AccessErrors';

/**
 * Anyone reads; nobody writes through this route (401 anonymous, 403 otherwise). For the root and
 * the server's own containers and documents, which change only through the routes made for that
 * (signup, outboxes, inboxes, webhooks).
 */
export class ReadOnlyAccess implements AccessPolicy {
  /**
   * @param reason - Said in the refusal: where this resource is changed instead.
   */
  public constructor(private readonly reason = 'This resource is managed by the server and cannot be written here.') {}

  public async authorize(operation: Operation): Promise<void> {
    const { method, agent } = operation;
    operation.decide({ headers: { 'wac-allow': wacAllow([ 'read' ], [ 'read' ]) }});
    if (WRITE_METHODS.has(method)) {
      throw refusal(agent, this.reason);
    }
  }
}
