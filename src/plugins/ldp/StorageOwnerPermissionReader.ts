import type { AuxiliaryIdentifierStrategy, PodStore, StorageLocationStrategy } from '@solid/community-server';
import { OwnerPermissionReader } from '@solid/community-server';

/**
 * CSS's OwnerPermissionReader (the owners of a CSS pod control its ACLs), deciding exactly as it
 * does, but without an error line for a storage that is not a CSS pod. Fedpod's storages (the root,
 * the users' `pods/<username>/`) are made by Fedpod, not by CSS's pod manager, so CSS finds no pod
 * for them on every request that touches an ACL: normal here, and their ACLs alone decide. A pod
 * CSS does know goes to CSS's own lookup, which still reports a pod without owners as an error.
 */
export class StorageOwnerPermissionReader extends OwnerPermissionReader {
  public constructor(
    private readonly pods: PodStore,
    authStrategy: AuxiliaryIdentifierStrategy,
    storageStrategy: StorageLocationStrategy,
  ) {
    super(pods, authStrategy, storageStrategy);
  }

  protected override async findOwners(storages: string[]): Promise<Record<string, string[]>> {
    const known: string[] = [];
    for (const storage of new Set(storages)) {
      if (await this.pods.findByBaseUrl(storage)) {
        known.push(storage);
      } else {
        this.logger.debug(`${storage} is not a CSS pod: its ACL alone decides who controls it`);
      }
    }
    return super.findOwners(known);
  }
}
