/**
 * What the store's client reports of each request, for whoever measures (the server's metrics
 * implement it): declared here so that storage depends on nothing above it.
 */
export interface StoreRequestObserver {
  /** Whether requests should be timed at all (timing costs a clock read per request). */
  readonly enabled: boolean;
  /** One request to the triple store. */
  storeRequest: (operation: 'query' | 'update', ok: boolean, seconds: number) => void;
}

/** Measures nothing. */
export const NO_STORE_OBSERVER: StoreRequestObserver = {
  enabled: false,
  storeRequest: (): void => {
    // Not measured.
  },
};
