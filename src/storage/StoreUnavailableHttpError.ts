import { HttpError } from '@solid/community-server';

/** Seconds a client is told to wait (Retry-After) before trying again. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * The triple store could not be reached (connection refused or reset, no answer in time) or said
 * it is unavailable (503). A CSS HttpError, so both CSS's pipeline and Fedpod's JSON handlers answer
 * 503 rather than 500: the request may succeed once the store is back, and nothing was stored.
 */
export class StoreUnavailableHttpError extends HttpError<503> {
  public constructor(message: string, options: { cause?: unknown } = {}) {
    super(503, 'StoreUnavailableHttpError', message, { ...options, errorCode: 'store_unavailable' });
  }

  public static override isInstance(error: unknown): error is StoreUnavailableHttpError {
    return HttpError.isInstance(error) && error.statusCode === 503 && error.errorCode === 'store_unavailable';
  }
}
