import type { ResourceStore } from '@solid/community-server';
import { BasicRepresentation, getLoggerFor } from '@solid/community-server';
import { DataFactory } from 'n3';
import type { ResourceGraphs } from '../../storage/ResourceGraphs';
import { PIM_STORAGE, RDF_TYPE } from '../../storage/StoreVocabulary';
import type { WebAclAuthorizer } from './WebAclAuthorizer';

const { namedNode, quad } = DataFactory;

/**
 * A storage container per user, under WebACL (the ActivityPub and `ldp-wac` setups): at signup,
 * `{base}pods/<username>/` is created with an ACL that gives the user's WebID Read, Write and
 * Control of it and of everything in it (acl:default), and nobody else anything. The user changes
 * its rules by writing `{base}pods/<username>/.acl`. Written through CSS's store, as any LDP write.
 */
export class UserStorage {
  protected readonly logger = getLoggerFor(this);
  private readonly root: string;

  /**
   * @param baseUrl - Public base URL.
   * @param store - CSS's resource store.
   * @param storagePath - Where the users' containers are, relative to the base URL.
   * @param acl - The cached WebACL decisions, told when an ACL is written here.
   * @param graphs - The resource graphs: a user's container is typed there as a storage (pim:Storage).
   */
  public constructor(
    baseUrl: string,
    private readonly store: ResourceStore,
    storagePath = 'pods/',
    private readonly acl?: WebAclAuthorizer,
    private readonly graphs?: ResourceGraphs,
  ) {
    const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
    this.root = new URL(storagePath.endsWith('/') ? storagePath : `${storagePath}/`, base).href;
  }

  /** The user's storage container. */
  public storageOf(username: string): string {
    return `${this.root}${encodeURIComponent(username)}/`;
  }

  /** Creates the container and its ACL (replacing what a failed signup may have left). */
  public async create(username: string, webId: string): Promise<void> {
    await this.remove(username);
    await this.ensure(username, webId);
  }

  /**
   * Makes what the user's storage lacks, its container or its ACL, and never removes or replaces
   * anything: for accounts made before the setup gave storages, at every start until all have one.
   * Whether anything was made.
   */
  public async ensure(username: string, webId: string): Promise<boolean> {
    const container = this.storageOf(username);
    const acl = `${container}.acl`;
    let made = false;
    if (!await this.store.hasResource({ path: container })) {
      await this.store.setRepresentation({ path: container }, new BasicRepresentation([], { path: container }));
      // Solid apps find the user's storage root by this type (as they find the server's root).
      await this.graphs?.addMetadata(container, [ quad(namedNode(container), namedNode(RDF_TYPE), namedNode(PIM_STORAGE)) ]);
      made = true;
    }
    // Without its own ACL the storage would fall under the root ACL's rules (public Read).
    if (!await this.store.hasResource({ path: acl })) {
      await this.store.setRepresentation({ path: acl }, new BasicRepresentation(storageAclTurtle(webId), { path: acl }, 'text/turtle'));
      made = true;
    }
    if (made) {
      await this.acl?.changed();
    }
    return made;
  }

  /** Removes the container, its ACL and what is in it (a failed signup, a rejected or deleted account). */
  public async remove(username: string): Promise<void> {
    const container = this.storageOf(username);
    if (!await this.store.hasResource({ path: container })) {
      return;
    }
    await this.removeTree(container, false);
    // CSS refuses to delete a storage root (pim:Storage) or its ACL: their graphs are removed directly.
    if (this.graphs) {
      await this.graphs.delete(`${container}.acl`);
      await this.graphs.delete(container, this.root);
    } else {
      await this.store.deleteResource({ path: container });
    }
    await this.acl?.changed();
  }

  private async removeTree(container: string, self = true): Promise<void> {
    const children = await this.store.getRepresentation({ path: container }, {});
    const members: string[] = [];
    for (const entry of children.metadata.quads()) {
      if (entry.predicate.value === 'http://www.w3.org/ns/ldp#contains') {
        members.push(entry.object.value);
      }
    }
    children.data.destroy();
    for (const member of members) {
      if (member.endsWith('/')) {
        await this.removeTree(member);
      } else {
        await this.store.deleteResource({ path: member });
      }
    }
    if (self) {
      await this.store.deleteResource({ path: container });
    }
  }
}

/** The ACL of a new user storage: its owner may do everything in it, nobody else anything. */
export function storageAclTurtle(webId: string): string {
  return [
    '@prefix acl: <http://www.w3.org/ns/auth/acl#>.',
    '',
    '# The owner of this storage may read, write and change the access rules of everything in it.',
    '<#owner>',
    '    a acl:Authorization;',
    `    acl:agent <${webId}>;`,
    '    acl:mode acl:Read, acl:Write, acl:Control;',
    '    acl:accessTo <./>;',
    '    acl:default <./>.',
    '',
  ].join('\n');
}
