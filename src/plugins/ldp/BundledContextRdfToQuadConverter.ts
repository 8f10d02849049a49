import { RdfToQuadConverter } from '@solid/community-server';
import type { DocumentLoader } from './DocumentLoader';

/** The contexts CSS's own configuration gives its RdfToQuadConverter (css:config/util/representation-conversion/converters/rdf-to-quad.json). */
const CSS_CONTEXTS: Record<string, string> = {
  'https://www.w3.org/ns/solid/notification/v1': '@css:templates/contexts/notification.jsonld',
  'https://www.w3.org/ns/activitystreams': '@css:templates/contexts/activitystreams.jsonld',
};

interface ContextLoader {
  load: (url: string) => Promise<unknown>;
}

/**
 * CSS's RdfToQuadConverter (it reads the JSON-LD, Turtle, … bodies CSS's own pipeline handles: PUT and
 * PATCH of RDF, notification subscriptions, client ID documents in RDF) without its remote contexts:
 * CSS fetched any `@context` URL a body named, from any address. Here a context is one of CSS's local
 * copies, or one Fedpod bundles (or this server's own), as for every document a client sends to
 * Fedpod's handlers (DocumentLoader.load); any other is refused, and the body with it (400).
 */
export class BundledContextRdfToQuadConverter extends RdfToQuadConverter {
  /**
   * @param documentLoader - Fedpod's contexts (bundled ones and this server's).
   */
  public constructor(documentLoader: DocumentLoader) {
    super(CSS_CONTEXTS);
    const self = this as unknown as { documentLoader: ContextLoader };
    const cssLoader = self.documentLoader;
    self.documentLoader = {
      load: async(url: string): Promise<unknown> => {
        if (url in CSS_CONTEXTS) {
          return cssLoader.load(url);
        }
        // Throws UnknownContextError for a context Fedpod does not have.
        return (await documentLoader.load(url)).document;
      },
    };
  }
}
