/**
 * The dataset cannot accept writes right now (closed, or its log hit an I/O
 * error). Distinct from a client error so the HTTP face can answer 503.
 */
export class StoreUnavailableError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}
