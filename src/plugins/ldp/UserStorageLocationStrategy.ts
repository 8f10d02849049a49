import type { ResourceIdentifier, StorageLocationStrategy } from '@solid/community-server';

/**
 * Which storage a resource is in, where users have their own (the ActivityPub and `ldp-wac` setups'
 * `{base}pods/<username>/`): a resource under a user's storage is in that storage, anything else in
 * the server's root storage. Its description (`Link rel=storageDescription`) is then the user's
 * storage's (`…/pods/<username>/.well-known/solid`), as Solid clients expect of a pod.
 */
export class UserStorageLocationStrategy implements StorageLocationStrategy {
  private readonly base: string;
  private readonly storages: string;

  /**
   * @param baseUrl - Public base URL: the root storage.
   * @param storagePath - Where the users' storages are, relative to the base URL.
   */
  public constructor(baseUrl: string, storagePath = 'pods/') {
    this.base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
    this.storages = new URL(storagePath.endsWith('/') ? storagePath : `${storagePath}/`, this.base).href;
  }

  public async getStorageIdentifier(identifier: ResourceIdentifier): Promise<ResourceIdentifier> {
    return { path: this.storageOf(identifier.path) };
  }

  /** The storage root of `iri`, synchronously. */
  public storageOf(iri: string): string {
    return this.userStorageOf(iri) ?? this.base;
  }

  /** The user's storage `iri` is in (the storage container itself included); undefined outside every user's storage. */
  public userStorageOf(iri: string): string | undefined {
    if (iri.startsWith(this.storages)) {
      const user = iri.slice(this.storages.length).split('/')[0];
      if (user !== '' && iri.length > this.storages.length + user.length) {
        return `${this.storages}${user}/`;
      }
    }
    return undefined;
  }
}
