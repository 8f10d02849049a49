import { UserStorageLocationStrategy } from '../../../../src/plugins/ldp/UserStorageLocationStrategy';

describe('UserStorageLocationStrategy', (): void => {
  const strategy = new UserStorageLocationStrategy('https://pod.example/', 'pods');

  it('puts what is under a user storage in that storage, and the rest in the root storage', async(): Promise<void> => {
    expect(strategy.storageOf('https://pod.example/pods/alice/')).toBe('https://pod.example/pods/alice/');
    expect(strategy.storageOf('https://pod.example/pods/alice/notes/a.ttl')).toBe('https://pod.example/pods/alice/');
    expect(strategy.storageOf('https://pod.example/pods/alice')).toBe('https://pod.example/');
    expect(strategy.storageOf('https://pod.example/pods/')).toBe('https://pod.example/');
    expect(strategy.storageOf('https://pod.example/notes/x')).toBe('https://pod.example/');
    expect(strategy.storageOf('https://pod.example/podsx/alice/')).toBe('https://pod.example/');
    expect(await strategy.getStorageIdentifier({ path: 'https://pod.example/pods/bob/x' })).toEqual({ path: 'https://pod.example/pods/bob/' });
  });

  it('names no user storage for what is outside every one, the storages\' own container included', (): void => {
    expect(strategy.userStorageOf('https://pod.example/pods/alice/.acl')).toBe('https://pod.example/pods/alice/');
    for (const iri of [ 'https://pod.example/', 'https://pod.example/pods/', 'https://pod.example/pods/.acl', 'https://pod.example/pods/alice',
      'https://pod.example/objects/x' ]) {
      expect([ iri, strategy.userStorageOf(iri) ]).toEqual([ iri, undefined ]);
    }
  });

  it('follows a base URL with a path', (): void => {
    expect(new UserStorageLocationStrategy('https://host.example/fedpod').storageOf('https://host.example/fedpod/pods/carol/y'))
      .toBe('https://host.example/fedpod/pods/carol/');
  });
});
