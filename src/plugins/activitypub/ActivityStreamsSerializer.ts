import type { Quad } from '@rdfjs/types';
import type { JsonObject } from '../ldp/Contexts';
import {
  ACTIVITYSTREAMS_CONTEXT_URL,
  FEDIVERSE_TERMS,
  bundledContexts,
  SECURITY_V1_CONTEXT_URL,
} from '../ldp/Contexts';
import type { DocumentLoader } from '../ldp/DocumentLoader';
import { compactWithJsonLd } from '../ldp/JsonLdFallback';
import { JsonLdCompactor, UnsupportedShapeError } from '../ldp/JsonLdCompactor';
import { inCompactedValueOrder } from '../ldp/ValueOrder';

/** The `@context` of actor documents and of the objects Fedpod serves to ActivityPub peers. */
export const ACTIVITYPUB_CONTEXT = [ ACTIVITYSTREAMS_CONTEXT_URL, SECURITY_V1_CONTEXT_URL, FEDIVERSE_TERMS ];

/**
 * Compacts stored quads the way ActivityPub peers read them: with the ActivityStreams and security
 * contexts (plus Mastodon's `manuallyApprovesFollowers`), terms like `publicKey` and `inbox` as plain
 * keys, nested nodes embedded. Uses the fast compactor, and jsonld.js for the shapes it leaves out.
 */
export class ActivityStreamsSerializer {
  private readonly context: JsonObject;
  private readonly compactor: JsonLdCompactor;

  public constructor(private readonly documentLoader: DocumentLoader) {
    const contexts = bundledContexts();
    this.context = {
      ...contexts.get(SECURITY_V1_CONTEXT_URL)!['@context'] as JsonObject,
      ...contexts.get(ACTIVITYSTREAMS_CONTEXT_URL)!['@context'] as JsonObject,
      ...FEDIVERSE_TERMS,
    };
    this.compactor = new JsonLdCompactor(this.context, true);
  }

  public async toJson(quads: readonly Quad[], rootIri: string): Promise<JsonObject> {
    let body: JsonObject;
    try {
      body = this.compactor.compact(quads, rootIri);
    } catch (error: unknown) {
      if (!(error instanceof UnsupportedShapeError)) {
        throw error;
      }
      // jsonld.js knows nothing of stored positions (ValueOrder): they order the values here.
      body = inCompactedValueOrder(await compactWithJsonLd(quads, ACTIVITYPUB_CONTEXT, rootIri, this.documentLoader)) as JsonObject;
    }
    return { '@context': ACTIVITYPUB_CONTEXT, ...body };
  }
}
