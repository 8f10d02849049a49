/** A SPARQL query or update for a dataset of a store running in this process. */
export interface StoreOperation {
  dataset: string;
  kind: 'query' | 'update';
  text: string;
  /** Accept header of a query (the results' format). */
  accept?: string;
}

/** What the store answered, as its HTTP face would have. */
export interface StoreAnswer {
  status: number;
  contentType?: string;
  body: string;
}

/** A store of this process that takes operations without HTTP. */
export interface InProcessStore {
  /** Rejects with an error whose `code` is ECONNRESET when the store went away before answering, ETIMEDOUT when it took too long. */
  operate: (operation: StoreOperation, timeoutMs: number) => Promise<StoreAnswer>;
}

const stores = new Map<string, InProcessStore>();

/**
 * The embedded stores running in this process, by the origin of their HTTP face
 * (`http://127.0.0.1:3030`). A SparqlClient whose endpoint is one of them sends its queries and
 * updates straight to it (a message to the store's thread) instead of over loopback HTTP, which
 * cost both threads more than many of the queries themselves. Other clients (a SPARQL console,
 * another process) keep using the HTTP face.
 */
export class InProcessStores {
  public static register(url: string, store: InProcessStore): void {
    stores.set(new URL(url).origin, store);
  }

  public static unregister(url: string, store: InProcessStore): void {
    const origin = new URL(url).origin;
    if (stores.get(origin) === store) {
      stores.delete(origin);
    }
  }

  /** The store whose HTTP face is at `origin`, when it runs in this process. */
  public static find(origin: string): InProcessStore | undefined {
    return stores.get(origin);
  }
}
