import { bundledContexts, contextUrlFor, FEDIVERSE_TERMS, fedpodContext, isFediverseContextUrl } from './Contexts';
import type { JsonObject } from './Contexts';

export interface RemoteDocument {
  contextUrl?: string;
  documentUrl: string;
  document: JsonObject;
  /**
   * `static` lets jsonld.js keep the context, resolved and processed, across operations (its shared
   * cache holds only contexts so tagged). Without it every document processed the ActivityStreams
   * context anew: about a tenth of the main thread's time while draining an inbox.
   */
  tag?: 'static';
}

export class UnknownContextError extends Error {
  public constructor(url: string) {
    super(`Unknown JSON-LD context ${url}: only bundled contexts and this server's context are loaded`);
    this.name = 'UnknownContextError';
  }
}

/** Where contexts no bundle has come from, for documents of other servers (see loadLenient). */
export interface RemoteContextSource {
  /** The context document at `url`, or undefined when it cannot be had (the reason is the source's to log). */
  contextDocument: (url: string) => Promise<JsonObject | undefined>;
}

/**
 * jsonld.js document loader. For documents clients send (LDP, outbox) it serves only bundled contexts
 * and this server's own context: fetching would make every write depend on third-party servers and
 * open an SSRF path through `@context`. For documents of other servers it can also ask a
 * RemoteContextSource (fetching, bounded and cached: see loadLenient).
 */
export class DocumentLoader {
  private readonly documents: Map<string, JsonObject>;

  /**
   * @param baseUrl - Public base URL: this server's own context, {base}context.json, is served from memory.
   * @param remote - Where other contexts of other servers' documents come from; without it they read as empty.
   */
  public constructor(baseUrl?: string, private readonly remote?: RemoteContextSource) {
    this.documents = new Map(bundledContexts());
    if (baseUrl) {
      this.documents.set(contextUrlFor(baseUrl), fedpodContext());
    }
  }

  /**
   * For documents from other servers (inbox deliveries): the known fediverse vocabularies are read
   * as FEDIVERSE_TERMS; any other context comes from the RemoteContextSource, and one that cannot be
   * had is read as empty instead of failing, so the terms it alone defines are dropped (unless
   * FEDIVERSE_TERMS gives them) while the rest of the activity is kept.
   */
  public readonly loadLenient = async(url: string): Promise<RemoteDocument> => {
    const known = this.knownDocument(url);
    if (known) {
      return known;
    }
    // Not static: a context that could not be had now may be had later.
    return { contextUrl: undefined, documentUrl: url, document: await this.remote?.contextDocument(url) ?? { '@context': {}}};
  };

  /** As loadLenient, without asking the RemoteContextSource: for a document a fetched context made unreadable. */
  public readonly loadOffline = async(url: string): Promise<RemoteDocument> =>
    this.knownDocument(url) ?? { contextUrl: undefined, documentUrl: url, document: { '@context': {}}};

  /**
   * A known context. A bundled one is static: every loader serves it alike, so jsonld.js may keep it
   * (the cache is by URL, shared by the loaders). A fediverse vocabulary is not: `load` refuses it.
   */
  private knownDocument(url: string): RemoteDocument | undefined {
    const document = this.known(url);
    return document && { contextUrl: undefined, documentUrl: url, document, ...this.documents.has(url) ? { tag: 'static' } : {}};
  }

  /** A context known without fetching: bundled, this server's, or a fediverse vocabulary read as FEDIVERSE_TERMS. */
  private known(url: string): JsonObject | undefined {
    return this.documents.get(url) ?? (isFediverseContextUrl(url) ? { '@context': FEDIVERSE_TERMS } : undefined);
  }

  public readonly load = async(url: string): Promise<RemoteDocument> => {
    const document = this.documents.get(url);
    if (!document) {
      throw new UnknownContextError(url);
    }
    return { contextUrl: undefined, documentUrl: url, document, tag: 'static' };
  };
}
