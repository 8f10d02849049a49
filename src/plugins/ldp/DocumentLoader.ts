import { bundledContexts, contextUrlFor, FEDIVERSE_TERMS, fedpodContext, isFediverseContextUrl } from './Contexts';
import type { JsonObject } from './Contexts';

export interface RemoteDocument {
  contextUrl?: string;
  documentUrl: string;
  document: JsonObject;
}

export class UnknownContextError extends Error {
  public constructor(url: string) {
    super(`Unknown JSON-LD context ${url}: only bundled contexts and this server's context are loaded`);
    this.name = 'UnknownContextError';
  }
}

/**
 * jsonld.js document loader that only serves bundled contexts and this server's own context.
 * Remote contexts are never fetched: that would make every POST depend on third-party servers
 * and opens an SSRF path through `@context`.
 */
export class DocumentLoader {
  private readonly documents: Map<string, JsonObject>;

  /**
   * @param baseUrl - Public base URL: this server's own context, {base}context.json, is served from memory.
   */
  public constructor(baseUrl?: string) {
    this.documents = new Map(bundledContexts());
    if (baseUrl) {
      this.documents.set(contextUrlFor(baseUrl), fedpodContext());
    }
  }

  /**
   * For documents from other servers (inbox deliveries): the known fediverse vocabularies are read
   * as FEDIVERSE_TERMS; any other unknown context is read as empty instead of failing, so the terms
   * it alone defines are dropped (unless FEDIVERSE_TERMS gives them) while the rest of the activity
   * is kept. Still nothing is fetched.
   */
  public readonly loadLenient = async(url: string): Promise<RemoteDocument> => {
    const document = this.documents.get(url) ??
      (isFediverseContextUrl(url) ? { '@context': FEDIVERSE_TERMS } : { '@context': {}});
    return { contextUrl: undefined, documentUrl: url, document };
  };

  public readonly load = async(url: string): Promise<RemoteDocument> => {
    const document = this.documents.get(url);
    if (!document) {
      throw new UnknownContextError(url);
    }
    return { contextUrl: undefined, documentUrl: url, document };
  };
}
