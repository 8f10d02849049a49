import type { HttpHandler, HttpHandlerInput, ReadWriteLocker } from '@solid/community-server';
import type { WebAclAuthorizer } from '../../plugins/ldp/WebAclAuthorizer';
import type { ResourceFiles } from '../../storage/ResourceFiles';
import { fileNameOf } from '../../storage/ResourceFiles';
import type { ResourceGraphs } from '../../storage/ResourceGraphs';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import { checkConditions, conditionsOf, containerOf, documentTarget, requireModes } from './LdpDocumentWrites';
import { LdpPaths } from './LdpPaths';
import type { LdpWriteHandlerOptions } from './LdpWriteHandlerOptions';

/**
 * DELETE of a document (RDF or a file), without CSS's pipeline: under CSS's lock of the resource,
 * under WebACL acl:Write on its container too (CSS's own check asks it of a DELETE: 401/403), the
 * preconditions (412), then one store update removing its triples, metadata and containment and
 * moving the container's modification date; a file's bytes go once the store no longer names them.
 * 205 as CSS answers; the store announces the change (Solid notifications).
 * Left to CSS: a document that does not exist (its 404 or, without acl:Read on the container, 401/403),
 * one with an ACL of its own (CSS removes it along), containers, ACLs and descriptions.
 */
export class LdpDeleteHandler extends JsonHttpHandler {
  private readonly paths: LdpPaths;
  private readonly store: ResourceGraphs;
  private readonly files: ResourceFiles;
  private readonly locker: ReadWriteLocker;
  private readonly fallback: HttpHandler;
  private readonly authorizer?: WebAclAuthorizer;

  /** @param options - `fallback` is required here: CSS's LDP handler, for the DELETEs this one leaves to it. */
  public constructor(options: LdpWriteHandlerOptions) {
    super();
    if (!options.fallback) {
      throw new Error('LdpDeleteHandler needs CSS\'s LDP handler as its fallback.');
    }
    this.paths = new LdpPaths(options.baseUrl);
    this.store = options.store;
    this.files = options.files;
    this.locker = options.locker;
    this.fallback = options.fallback;
    this.authorizer = options.authorizer;
  }

  public override async canHandle({ request }: HttpHandlerInput): Promise<void> {
    if (request.method !== 'DELETE' || !documentTarget(this.paths, request)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve(input: HttpHandlerInput): Promise<void> {
    const { request, response } = input;
    const iri = documentTarget(this.paths, request)!;
    const parent = containerOf(iri);
    const conditions = await conditionsOf(request);
    const outcome = await this.locker.withWriteLock({ path: iri }, async(): Promise<'deleted' | 'css'> => {
      const { metadata, present } = await this.store.readMetadataAndPresence(iri, [ parent, `${iri}.acl` ]);
      if (metadata.length === 0 || !present.has(parent) || present.has(`${iri}.acl`)) {
        return 'css';
      }
      await requireModes(this.authorizer, request, parent, [ 'write' ]);
      checkConditions(conditions, iri, metadata);
      await this.store.delete(iri, parent);
      const file = fileNameOf(metadata);
      if (file) {
        await this.files.remove(file);
      }
      return 'deleted';
    });
    if (outcome === 'css') {
      await this.fallback.handleSafe(input);
      return;
    }
    // A DELETE has no body to speak of; whatever was sent is dropped.
    request.resume();
    response.writeHead(205, { 'content-length': '0' });
    response.end();
  }
}
