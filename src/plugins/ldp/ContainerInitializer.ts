import type { ResourceStore } from '@solid/community-server';
import { BasicRepresentation, getLoggerFor, Initializer } from '@solid/community-server';

/**
 * Creates the configured containers at start-up when they are missing (e.g. /notes/ in the LDP setup;
 * /activities/, /actors/, /objects/ in the ActivityPub setup). Goes through CSS's ResourceStore so
 * parent containers and metadata are made exactly as CSS makes them.
 */
export class ContainerInitializer extends Initializer {
  protected readonly logger = getLoggerFor(this);

  /**
   * @param baseUrl - Public base URL.
   * @param store - CSS's resource store.
   * @param containers - Container paths relative to the base, e.g. "notes/".
   */
  public constructor(
    private readonly baseUrl: string,
    private readonly store: ResourceStore,
    private readonly containers: string[],
  ) {
    super();
  }

  public async handle(): Promise<void> {
    const base = this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`;
    for (const relative of this.containers) {
      const path = `${base}${relative.replace(/^\/+/u, '').replace(/\/*$/u, '/')}`;
      if (await this.store.hasResource({ path })) {
        continue;
      }
      try {
        await this.store.setRepresentation({ path }, new BasicRepresentation([], { path }));
        this.logger.info(`Created container ${path}`);
      } catch (error: unknown) {
        // Another initializer (or node) may have created it meanwhile: fine if it exists now.
        if (!await this.store.hasResource({ path })) {
          throw error;
        }
      }
    }
  }
}
