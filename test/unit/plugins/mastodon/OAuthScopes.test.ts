import { describeScope, grants, grantsAny, KNOWN_SCOPES, parseScopes, UnknownScopeError } from '../../../../src/plugins/mastodon/OAuthScopes';

describe('OAuthScopes', (): void => {
  it('parses space- or plus-separated scopes, without repeats, with a fallback when there are none', (): void => {
    expect(parseScopes('read write:statuses read')).toEqual([ 'read', 'write:statuses' ]);
    expect(parseScopes('read+follow')).toEqual([ 'read', 'follow' ]);
    expect(parseScopes(undefined)).toEqual([ 'read' ]);
    expect(parseScopes('  ', [ 'push' ])).toEqual([ 'push' ]);
  });

  it('refuses scopes that are not Mastodon\'s, naming them', (): void => {
    expect((): string[] => parseScopes('read admin write:everything')).toThrow(UnknownScopeError);
    expect((): string[] => parseScopes('read admin:read:everything')).toThrow('Unknown scope: admin:read:everything.');
  });

  it('grants a granular scope by its kind, and follows, blocks and mutes by follow', (): void => {
    expect(grants([ 'read' ], 'read:statuses')).toBe(true);
    expect(grants([ 'read' ], 'write:statuses')).toBe(false);
    expect(grants([ 'write:statuses' ], 'write:statuses')).toBe(true);
    expect(grants([ 'write:statuses' ], 'write')).toBe(false);
    expect(grants([ 'write:media' ], 'write:statuses')).toBe(false);
    expect(grants([ 'follow' ], 'write:follows')).toBe(true);
    expect(grants([ 'follow' ], 'read:mutes')).toBe(true);
    expect(grants([ 'follow' ], 'write:statuses')).toBe(false);
    expect(grants([ 'read' ], 'profile')).toBe(false);
    expect(grantsAny([ 'profile' ], [ 'profile', 'read:accounts' ])).toBe(true);
    expect(grantsAny([ 'read' ], [ 'profile', 'read:accounts' ])).toBe(true);
    expect(grantsAny([ 'write' ], [ 'profile', 'read:accounts' ])).toBe(false);
  });

  it('says what each scope lets an app do', (): void => {
    for (const scope of KNOWN_SCOPES) {
      expect(describeScope(scope).length).toBeGreaterThan(5);
    }
    expect(describeScope('write:media')).toBe('change your media data (write:media)');
  });
});
