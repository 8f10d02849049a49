import type { AccessPolicy } from './AccessPolicy';

/**
 * Anyone may reach the route's handler: routes whose handler is itself the check (signup and login
 * check passwords, an inbox checks the delivery's signature, a webhook URI is its own secret) or
 * that serve public documents (discovery, contexts, health).
 */
export class PublicAccess implements AccessPolicy {
  public async authorize(): Promise<void> {
    // Nothing to check.
  }
}
