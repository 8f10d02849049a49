import type { ResourceStore } from '@solid/community-server';
import { BasicRepresentation, getLoggerFor, Initializer } from '@solid/community-server';
import { DataFactory } from 'n3';
import type { ResourceGraphs } from '../../storage/ResourceGraphs';
import { PIM_STORAGE, RDF_TYPE } from '../../storage/StoreVocabulary';

const { namedNode, quad } = DataFactory;

/**
 * Makes the root container a storage (`pim:Storage`) at start-up, creating it when missing, so that
 * Solid clients find the storage root by its type and `/.well-known/solid` describes it. (A root
 * written by CSS gets the type from the data accessor; the insert here types a root stored before.)
 */
export class StorageRootInitializer extends Initializer {
  protected readonly logger = getLoggerFor(this);
  private readonly root: string;

  /**
   * @param baseUrl - Public base URL: the root container.
   * @param store - CSS's resource store (creates the root as CSS does).
   * @param graphs - The resource graphs (where the type is added).
   */
  public constructor(
    baseUrl: string,
    private readonly store: ResourceStore,
    private readonly graphs: ResourceGraphs,
  ) {
    super();
    this.root = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  }

  public async handle(): Promise<void> {
    if (!await this.store.hasResource({ path: this.root })) {
      try {
        await this.store.setRepresentation({ path: this.root }, new BasicRepresentation([], { path: this.root }));
      } catch (error: unknown) {
        // Created meanwhile by another initializer or node: fine if it exists now.
        if (!await this.store.hasResource({ path: this.root })) {
          throw error;
        }
      }
    }
    // An insert of one triple: idempotent, and safe beside writes that move the root's dc:modified.
    await this.graphs.addMetadata(this.root, [ quad(namedNode(this.root), namedNode(RDF_TYPE), namedNode(PIM_STORAGE)) ]);
  }
}
