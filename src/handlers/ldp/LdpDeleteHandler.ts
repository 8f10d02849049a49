import type { Conditions } from '@solid/community-server';
import { fileNameOf } from '../../storage/ResourceFiles';
import { NOT_HANDLED } from '../http/NotHandled';
import type { Operation, OperationInput } from '../http/Operation';
import type { DocumentWriteOutcome } from './LdpDocumentWriteHandler';
import { LdpDocumentWriteHandler } from './LdpDocumentWriteHandler';
import { checkConditions, documentTarget, requireModes } from './LdpDocumentWrites';
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
export class LdpDeleteHandler extends LdpDocumentWriteHandler {
  /** @param options - `fallback` is required here: CSS's LDP handler, for the DELETEs this one leaves to it. */
  public constructor(options: LdpWriteHandlerOptions) {
    super(options);
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    if (request.method !== 'DELETE' || !documentTarget(this.paths, operation.target)) {
      throw NOT_HANDLED;
    }
  }

  protected async write(operation: Operation, iri: string, parent: string, conditions: Conditions | undefined):
  Promise<DocumentWriteOutcome> {
    const { metadata, present } = await this.store.readMetadataAndPresence(iri, [ parent, `${iri}.acl` ]);
    if (metadata.length === 0 || !present.has(parent) || present.has(`${iri}.acl`)) {
      return 'css';
    }
    await requireModes(this.authorizer, operation, parent, [ 'write' ]);
    checkConditions(conditions, iri, metadata);
    await this.store.delete(iri, parent);
    const file = fileNameOf(metadata);
    if (file) {
      await this.files.remove(file);
    }
    return 'changed';
  }
}
