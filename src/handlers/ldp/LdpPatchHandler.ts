import type { Conditions } from '@solid/community-server';
import type { Quad } from '@rdfjs/types';
import { DataFactory, Store } from 'n3';
import { fileNameOf } from '../../storage/ResourceFiles';
import { documentMetadata } from '../../storage/ResourceGraphs';
import { DC_MODIFIED } from '../../storage/StoreVocabulary';
import { mediaTypeOf, readBody } from '../http/HttpUtil';
import { NOT_HANDLED } from '../http/NotHandled';
import type { Operation, OperationInput } from '../http/Operation';
import type { DocumentWriteOutcome } from './LdpDocumentWriteHandler';
import { LdpDocumentWriteHandler } from './LdpDocumentWriteHandler';
import { checkConditions, documentTarget, requireModes } from './LdpDocumentWrites';
import type { LdpWriteHandlerOptions } from './LdpWriteHandlerOptions';
import { N3_PATCH, parseRdfPatch, SPARQL_UPDATE } from './RdfPatch';

const { defaultGraph } = DataFactory;

/**
 * PATCH of an RDF document with an N3 Patch (`text/n3`) or a SPARQL Update
 * (`application/sparql-update`: what Solid clients send, saveSolidDatasetAt among them), without
 * CSS's pipeline but with its rules, in its order: the body parsed by CSS's parsers (400, 422); under
 * WebACL the modes CSS's own check adds (acl:Read and acl:Write for a patch that deletes: 401/403);
 * the preconditions (412); the patch applied to the document's triples in memory by CSS's N3
 * patcher (409 for no match or several matches of `solid:where`, or a delete of a missing triple) or,
 * for SPARQL, here for INSERT DATA / DELETE DATA and by CSS's patcher for the rest; then one store
 * update. All of it under CSS's lock of the resource; a failing patch writes nothing. 201 with
 * Location when the patch created the document, 205 otherwise, as CSS answers; the store announces
 * the change (Solid notifications).
 * Left to CSS, with the body unread: a missing parent container (CSS creates it), a name taken by a
 * container, a file (a non-RDF document), ACLs and descriptions.
 */
export class LdpPatchHandler extends LdpDocumentWriteHandler {
  /** @param options - `fallback` is required here: CSS's LDP handler, for the PATCHes this one leaves to it. */
  public constructor(options: LdpWriteHandlerOptions) {
    super(options);
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    const type = mediaTypeOf(request.headers['content-type']);
    if (request.method !== 'PATCH' || (type !== N3_PATCH && type !== SPARQL_UPDATE) || !documentTarget(this.paths, operation.target)) {
      throw NOT_HANDLED;
    }
  }

  protected async write(operation: Operation, iri: string, parent: string, conditions: Conditions | undefined):
  Promise<DocumentWriteOutcome> {
    const { request } = operation;
    // One query for the usual case, a document that exists (its container does too, and no container has its name).
    const existing = await this.store.read(iri);
    if (existing ? fileNameOf(existing.metadata) : !await this.canCreate(iri, parent)) {
      return 'css';
    }
    const metadata = existing?.metadata ?? [];
    const body = await readBody(request, this.maxBodyBytes);
    const patch = await parseRdfPatch(mediaTypeOf(request.headers['content-type']), body.toString('utf8'), iri);
    await requireModes(this.authorizer, operation, iri, patch.modes);
    checkConditions(conditions, iri, metadata);
    const dataset = new Store(existing?.data ?? []);
    await patch.apply(dataset);
    const data = dataset.getQuads(null, null, null, defaultGraph());
    const now = new Date();
    if (existing) {
      await this.store.write(iri, parent, withModified(metadata, iri, now), data);
      return 'changed';
    }
    await this.store.createInContainer(parent, iri, data, documentMetadata(iri, now), now);
    return 'created';
  }

  /** Whether a patch may create `iri` here: its container exists and no container has its name (else CSS decides). */
  private async canCreate(iri: string, parent: string): Promise<boolean> {
    const { present } = await this.store.readMetadataAndPresence(iri, [ parent, `${iri}/` ]);
    return present.has(parent) && !present.has(`${iri}/`);
  }
}

/** The document's metadata as it was (types, what its description says), with its new modification date. */
function withModified(metadata: readonly Quad[], iri: string, modified: Date): Quad[] {
  const kept = metadata.filter((entry): boolean => !(entry.subject.value === iri && entry.predicate.value === DC_MODIFIED));
  return [ ...kept, ...documentMetadata(iri, modified).filter((entry): boolean => entry.predicate.value === DC_MODIFIED) ];
}
