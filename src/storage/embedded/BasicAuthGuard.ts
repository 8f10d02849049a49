import { timingSafeEqual } from 'node:crypto';

/**
 * What a request without credentials may do:
 *  - 'none': nothing (default; like Fuseki with a shiro password file);
 *  - 'read': queries and Graph Store reads, but no writes or admin changes;
 *  - 'all': everything. Only for a store bound to 127.0.0.1 whose only client
 *    cannot send credentials (CSS's SparqlDataAccessor builds its own fetcher).
 * Wrong credentials are always refused, whatever this says.
 */
export type AnonymousAccess = 'none' | 'read' | 'all';

export type AuthOutcome = 'authenticated' | 'anonymous' | 'rejected';

/** HTTP Basic authentication against one configured user. */
export class BasicAuthGuard {
  private readonly expected: Buffer;

  public constructor(user: string, password: string, private readonly anonymousAccess: AnonymousAccess) {
    this.expected = Buffer.from(Buffer.from(`${user}:${password}`, 'utf8').toString('base64'), 'latin1');
  }

  public check(authorization: string | undefined): AuthOutcome {
    if (authorization === undefined) {
      return 'anonymous';
    }
    if (authorization.length < 6 || authorization.slice(0, 6).toLowerCase() !== 'basic ') {
      return 'rejected';
    }
    const given = Buffer.from(authorization.slice(6).trim(), 'latin1');
    // Constant-time so other local processes cannot guess the password byte by byte.
    return given.length === this.expected.length && timingSafeEqual(given, this.expected) ? 'authenticated' : 'rejected';
  }

  public permits(outcome: AuthOutcome, write: boolean): boolean {
    switch (outcome) {
      case 'authenticated':
        return true;
      case 'rejected':
        return false;
      case 'anonymous':
        return this.anonymousAccess === 'all' || (this.anonymousAccess === 'read' && !write);
    }
  }
}
