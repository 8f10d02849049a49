import type { UserStorageLocationStrategy } from '../../plugins/ldp/UserStorageLocationStrategy';
import type { HttpHandler, ReadWriteLocker, RepresentationConverter } from '@solid/community-server';
import type { ResourceFiles } from '../../storage/ResourceFiles';
import type { ResourceGraphs } from '../../storage/ResourceGraphs';
import type { WebAclAuthorizer } from '../../plugins/ldp/WebAclAuthorizer';

/** What Fedpod's LDP write handlers write with (an options object: more than six parts). */
export interface LdpWriteHandlerOptions {
  /** Public base URL. */
  baseUrl: string;
  /** Where users have storages of their own (the storage description each resource names). */
  storages?: UserStorageLocationStrategy;
  /** The resource graphs. */
  store: ResourceGraphs;
  /** What is stored of a body: triples or a file (the data accessor's own, RdfOrFileConverter). */
  converter: RepresentationConverter;
  /** CSS's resource locker, so these writes never race CSS's own. */
  locker: ReadWriteLocker;
  /** The bytes of non-RDF resources. */
  files: ResourceFiles;
  /** CSS's LDP handler, for the requests a handler leaves to it. */
  fallback?: HttpHandler;
  /**
   * Under WebACL, the authorizer the pipeline's check uses: the write handlers ask it for the modes
   * CSS's own check adds (a patch that deletes needs acl:Write); none in the other setups.
   */
  authorizer?: WebAclAuthorizer;
  /** Largest accepted body (default 1 MiB). */
  maxBodyBytes?: number;
}
