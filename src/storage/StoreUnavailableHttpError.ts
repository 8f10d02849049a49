import { FedpodHttpError } from '../util/HttpErrors';

/** Seconds a client is told to wait (Retry-After) before trying again. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * The triple store could not be reached (connection refused or reset, no answer in time) or said
 * it is unavailable (503): both CSS's pipeline and Fedpod's handlers answer 503 rather than 500, as
 * the request may succeed once the store is back, and nothing was stored.
 */
export class StoreUnavailableHttpError extends FedpodHttpError {
  public constructor(message: string, options: { cause?: unknown } = {}) {
    super(503, 'store_unavailable', message, { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) }, {}, options.cause);
    this.name = 'StoreUnavailableHttpError';
  }

  public static override isInstance(error: unknown): error is StoreUnavailableHttpError {
    return FedpodHttpError.hasCode(error, 'store_unavailable') && (error as FedpodHttpError).statusCode === 503;
  }
}
