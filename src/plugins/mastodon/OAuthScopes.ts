/**
 * Mastodon's OAuth scopes: the five top-level ones and the granular ones of `read` and `write`.
 * `read` covers every `read:*`, `write` every `write:*`, and `follow` (deprecated by Mastodon,
 * still asked for by many apps) covers the follows, blocks and mutes, read and write.
 */
const GRANULAR: Record<'read' | 'write', readonly string[]> = {
  read: [ 'accounts', 'blocks', 'bookmarks', 'favourites', 'filters', 'follows', 'lists', 'mutes', 'notifications', 'search', 'statuses' ],
  write: [ 'accounts', 'blocks', 'bookmarks', 'conversations', 'favourites', 'filters', 'follows', 'lists', 'media', 'mutes',
    'notifications', 'reports', 'statuses' ],
};

/** The admin scopes of Mastodon's moderation API: `admin:read` covers every `admin:read:*`, `admin:write` every `admin:write:*`. */
const ADMIN = [ 'accounts', 'reports', 'domain_blocks', 'domain_allows', 'ip_blocks', 'email_domain_blocks', 'canonical_email_blocks' ];

const FOLLOW_COVERS = new Set([ 'read:follows', 'write:follows', 'read:blocks', 'write:blocks', 'read:mutes', 'write:mutes' ]);

/** Every scope an app may ask for. */
export const KNOWN_SCOPES: ReadonlySet<string> = new Set([
  'read', 'write', 'follow', 'push', 'profile',
  ...GRANULAR.read.map((name): string => `read:${name}`),
  ...GRANULAR.write.map((name): string => `write:${name}`),
  'admin:read', 'admin:write',
  ...ADMIN.flatMap((name): string[] => [ `admin:read:${name}`, `admin:write:${name}` ]),
]);

/** What a scope lets an app do, as the consent page says it. */
export function describeScope(scope: string): string {
  switch (scope) {
    case 'read': return 'read everything your account can read';
    case 'write': return 'post, change and delete in your name';
    case 'follow': return 'follow, block and mute accounts, and see whom you follow, block and mute';
    case 'push': return 'receive push notifications';
    case 'profile': return 'see your profile (who you are)';
    case 'admin:read': return 'read all moderation data of this server (operators only)';
    case 'admin:write': return 'take moderation actions on this server (operators only)';
    default: {
      if (scope.startsWith('admin:')) {
        const [ , kind, name ] = scope.split(':');
        return `${kind === 'read' ? 'read' : 'change'} this server's ${name.replace(/_/gu, ' ')} (operators only)`;
      }
      const [ kind, name ] = scope.split(':');
      return `${kind === 'read' ? 'read' : 'change'} your ${name.replace(/s$/u, '')} data (${scope})`;
    }
  }
}

/**
 * The scopes of a space-separated list (Mastodon also splits on `+`, which forms decode to a space),
 * in order, without repeats; `fallback` when the list is empty. Unknown scopes throw, naming them.
 */
export function parseScopes(text: string | undefined, fallback: readonly string[] = [ 'read' ]): string[] {
  const scopes = [ ...new Set((text ?? '').split(/[\s+]+/u).filter((scope): boolean => scope.length > 0)) ];
  const unknown = scopes.filter((scope): boolean => !KNOWN_SCOPES.has(scope));
  if (unknown.length > 0) {
    throw new UnknownScopeError(unknown);
  }
  return scopes.length > 0 ? scopes : [ ...fallback ];
}

/** Scopes that are not Mastodon's. */
export class UnknownScopeError extends Error {
  public constructor(public readonly scopes: string[]) {
    super(`Unknown scope${scopes.length > 1 ? 's' : ''}: ${scopes.join(', ')}.`);
    this.name = 'UnknownScopeError';
  }
}

/** Whether the granted scopes allow `needed` (one scope). */
export function grants(granted: readonly string[], needed: string): boolean {
  if (granted.includes(needed)) {
    return true;
  }
  // `read` grants `read:statuses`, `admin:read` grants `admin:read:reports`; `admin` alone is no scope.
  const parts = needed.split(':');
  for (let length = parts.length - 1; length > 0; length -= 1) {
    const broader = parts.slice(0, length).join(':');
    if (broader !== 'admin' && granted.includes(broader)) {
      return true;
    }
  }
  return FOLLOW_COVERS.has(needed) && granted.includes('follow');
}

/** Whether the granted scopes allow any of the alternatives a route accepts (`profile read:accounts`). */
export function grantsAny(granted: readonly string[], alternatives: readonly string[]): boolean {
  return alternatives.some((needed): boolean => grants(granted, needed));
}
