import type { AccessPolicy, AccessRequest } from './AccessPolicy';
import { WRITE_METHODS } from './AccessPolicy';
import { refusal } from './AccessErrors';
import { AccessHeaders } from './AccessHeaders';

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

  public async authorize({ request, method, agent }: AccessRequest): Promise<void> {
    AccessHeaders.set(request, { 'wac-allow': AccessHeaders.wacAllow([ 'read' ], [ 'read' ]) });
    if (WRITE_METHODS.has(method)) {
      throw refusal(agent, this.reason);
    }
  }
}
