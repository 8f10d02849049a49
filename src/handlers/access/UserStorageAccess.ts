import type { UserStorageLocationStrategy } from '../../plugins/ldp/UserStorageLocationStrategy';
import type { Operation } from '../http/Operation';
import type { AccessPolicy } from './AccessPolicy';
import { wacAllow, WRITE_METHODS } from './AccessPolicy';
import { refusal } from './AccessErrors';

/**
 * Writes through LDP only inside the users' storages (the ActivityPub setup with a storage per user):
 * inside `{base}pods/<username>/`, `acl` (WebACL) decides everything; elsewhere it decides reads
 * only, and every write is refused (401 anonymous, 403 otherwise), whatever the root ACL grants.
 * The server's own containers (/activities/, /actors/, /objects/) change only through the routes
 * made for that (signup, outboxes, inboxes, an author's PUT or DELETE of their objects), so a
 * WebACL owner of the root must not write into them either.
 */
export class UserStorageAccess implements AccessPolicy {
  /**
   * @param storages - Where the users' storages are.
   * @param acl - The policy inside them, and for reads elsewhere (WebAclAccess).
   * @param reason - Said in the refusal of a write outside the storages.
   */
  public constructor(
    private readonly storages: UserStorageLocationStrategy,
    private readonly acl: AccessPolicy,
    private readonly reason = 'Nothing is written here through LDP: post activities to your outbox, or PUT and DELETE your own objects.',
  ) {}

  public async authorize(operation: Operation): Promise<void> {
    if (this.storages.userStorageOf(operation.target.iri) !== undefined) {
      return this.acl.authorize(operation);
    }
    if (WRITE_METHODS.has(operation.method)) {
      operation.decide({ headers: { 'wac-allow': wacAllow([ 'read' ], [ 'read' ]) }});
      throw refusal(operation.agent, this.reason);
    }
    await this.acl.authorize(operation);
    // What the ACL grants beyond reading does not hold here: say so to clients that show edit buttons.
    const headers = operation.access.headers;
    if (headers?.['wac-allow'] !== undefined) {
      operation.decide({ headers: { ...headers, 'wac-allow': readOnly(headers['wac-allow']) }});
    }
  }
}

/** A WAC-Allow value with every mode but read taken out. */
function readOnly(wacAllow: string): string {
  return wacAllow.replace(/"([^"]*)"/gu, (_match, modes: string): string =>
    `"${modes.split(' ').filter((mode): boolean => mode === 'read').join(' ')}"`);
}
