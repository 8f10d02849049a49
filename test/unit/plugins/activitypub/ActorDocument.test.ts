import { actorDocument } from '../../../../src/plugins/activitypub/ActorDocument';
import { ACTOR_COLLECTIONS, ActorUrls } from '../../../../src/plugins/activitypub/ActorUrls';

describe('ActorUrls', (): void => {
  it('adds a trailing slash to the base URL once', (): void => {
    expect(new ActorUrls('https://pod.example').base).toBe('https://pod.example/');
    expect(new ActorUrls('https://pod.example/').base).toBe('https://pod.example/');
  });

  it('places actors, their collections and the shared inbox under the base', (): void => {
    const urls = new ActorUrls('https://pod.example');
    expect(urls.actor('alice')).toBe('https://pod.example/actors/alice');
    expect(urls.sharedInbox()).toBe('https://pod.example/inbox');
    expect(ACTOR_COLLECTIONS.map((name): string => urls.collection('alice', name))).toEqual([
      'https://pod.example/actors/alice/inbox',
      'https://pod.example/actors/alice/outbox',
      'https://pod.example/actors/alice/followers',
      'https://pod.example/actors/alice/following',
      'https://pod.example/actors/alice/liked',
      'https://pod.example/actors/alice/featured',
    ]);
  });

  it('keeps a path prefix of the base', (): void => {
    const urls = new ActorUrls('https://host.example/pods/one');
    expect(urls.base).toBe('https://host.example/pods/one/');
    expect(urls.actor('bob')).toBe('https://host.example/pods/one/actors/bob');
    expect(urls.collection('bob', 'outbox')).toBe('https://host.example/pods/one/actors/bob/outbox');
    expect(urls.sharedInbox()).toBe('https://host.example/pods/one/inbox');
    expect(urls.usernameOf('https://host.example/pods/one/actors/bob')).toBe('bob');
    expect(urls.usernameOf('https://host.example/actors/bob')).toBeUndefined();
    expect(urls.usernameOf('https://host.example/pods/two/actors/bob')).toBeUndefined();
  });

  describe('collectionOf', (): void => {
    const urls = new ActorUrls('https://pod.example/');

    it('reads the actor and the collection of a collection IRI, the inverse of collection()', (): void => {
      for (const name of ACTOR_COLLECTIONS) {
        expect(urls.collectionOf(urls.collection('alice', name))).toEqual({ username: 'alice', name });
      }
    });

    it('is undefined for anything else', (): void => {
      for (const iri of [ 'https://pod.example/actors/alice/blocked', 'https://pod.example/actors/alice', 'https://other.example/actors/alice/inbox',
        'https://pod.example/actors/Alice!/inbox', 'https://pod.example/objects/x/likes' ]) {
        expect(urls.collectionOf(iri)).toBeUndefined();
      }
    });
  });

  describe('usernameOf', (): void => {
    const urls = new ActorUrls('https://pod.example/');

    it('reads the username of a local actor IRI, the inverse of actor()', (): void => {
      for (const name of [ 'alice', 'a', '0', '_x', 'a.b-c_d', 'z'.repeat(64) ]) {
        expect(urls.usernameOf(urls.actor(name))).toBe(name);
      }
    });

    it.each([
      [ 'another host', 'https://other.example/actors/alice' ],
      [ 'a host that extends the base host', 'https://pod.example.evil/actors/alice' ],
      [ 'another scheme', 'http://pod.example/actors/alice' ],
      [ 'a lookalike path', 'https://pod.example/actorsx/alice' ],
      [ 'a relative IRI', '/actors/alice' ],
      [ 'the actors container', 'https://pod.example/actors/' ],
      [ 'the actors container without slash', 'https://pod.example/actors' ],
      [ 'a collection', 'https://pod.example/actors/alice/inbox' ],
      [ 'a trailing slash', 'https://pod.example/actors/alice/' ],
      [ 'a fragment', 'https://pod.example/actors/alice#main-key' ],
      [ 'a query', 'https://pod.example/actors/alice?page=1' ],
      [ 'uppercase', 'https://pod.example/actors/Alice' ],
      [ 'a leading "."', 'https://pod.example/actors/.alice' ],
      [ 'a leading "-"', 'https://pod.example/actors/-alice' ],
      [ 'a traversal', 'https://pod.example/actors/../alice' ],
      [ 'percent-encoding', 'https://pod.example/actors/al%69ce' ],
      [ '65 characters', `https://pod.example/actors/${'z'.repeat(65)}` ],
      [ 'the empty string', '' ],
    ])('is undefined for %s', (_, iri): void => {
      expect(urls.usernameOf(iri)).toBeUndefined();
    });
  });
});

describe('actorDocument', (): void => {
  const urls = new ActorUrls('https://pod.example');
  const pem = '-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----\n';
  const published = '2024-05-06T07:08:09.000Z';

  it('describes a Person with its collections, shared inbox and public key', (): void => {
    const id = 'https://pod.example/actors/alice';
    expect(actorDocument(urls, 'alice', pem, published)).toEqual({
      '@context': [
        'https://www.w3.org/ns/activitystreams',
        'https://w3id.org/security/v1',
        expect.objectContaining({ manuallyApprovesFollowers: 'as:manuallyApprovesFollowers', sensitive: 'as:sensitive' }),
      ],
      id,
      type: 'Person',
      preferredUsername: 'alice',
      name: 'alice',
      url: id,
      inbox: `${id}/inbox`,
      outbox: `${id}/outbox`,
      followers: `${id}/followers`,
      following: `${id}/following`,
      liked: `${id}/liked`,
      featured: `${id}/featured`,
      endpoints: { sharedInbox: 'https://pod.example/inbox', uploadMedia: 'https://pod.example/actors/alice/uploadMedia' },
      manuallyApprovesFollowers: false,
      published,
      publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: pem },
    });
  });

  it('follows the base URL and the username', (): void => {
    const document = actorDocument(new ActorUrls('https://host.example/pods/one/'), 'bob', pem, published);
    expect(document.id).toBe('https://host.example/pods/one/actors/bob');
    expect(document.preferredUsername).toBe('bob');
    expect(document.inbox).toBe('https://host.example/pods/one/actors/bob/inbox');
    expect(document.endpoints).toEqual({ sharedInbox: 'https://host.example/pods/one/inbox',
      uploadMedia: 'https://host.example/pods/one/actors/bob/uploadMedia' });
    expect(document.publicKey).toEqual(expect.objectContaining({
      id: 'https://host.example/pods/one/actors/bob#main-key', owner: 'https://host.example/pods/one/actors/bob',
    }));
  });

  it('names the Solid storage and OpenID issuer when given, with their terms in the context', (): void => {
    const document = actorDocument(urls, 'alice', pem, published,
      { storage: 'https://pod.example/pods/alice/', oidcIssuer: 'https://pod.example/' });
    expect(document.storage).toBe('https://pod.example/pods/alice/');
    expect(document.oidcIssuer).toBe('https://pod.example/');
    expect((document['@context'] as unknown[]).at(-1)).toEqual({
      storage: { '@id': 'http://www.w3.org/ns/pim/space#storage', '@type': '@id' },
      oidcIssuer: { '@id': 'http://www.w3.org/ns/solid/terms#oidcIssuer', '@type': '@id' },
    });
    const issuerOnly = actorDocument(urls, 'alice', pem, published, { oidcIssuer: 'https://pod.example/' });
    expect(issuerOnly.storage).toBeUndefined();
    expect((issuerOnly['@context'] as unknown[]).at(-1)).toEqual({
      oidcIssuer: { '@id': 'http://www.w3.org/ns/solid/terms#oidcIssuer', '@type': '@id' },
    });
  });

  it('makes a fresh endpoints object for each document', (): void => {
    const first = actorDocument(urls, 'alice', pem, published);
    (first.endpoints as Record<string, string>).sharedInbox = 'https://evil.example/inbox';
    const second = actorDocument(urls, 'alice', pem, published);
    expect(second.endpoints).toEqual({ sharedInbox: 'https://pod.example/inbox', uploadMedia: 'https://pod.example/actors/alice/uploadMedia' });
  });
});
