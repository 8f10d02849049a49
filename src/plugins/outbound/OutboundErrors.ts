/**
 * Why a request of this server to another one failed without an HTTP status. `retryable` tells a
 * queue whether trying again later can help: network errors and timeouts can; refused addresses, bad
 * URLs and oversized responses cannot.
 */
export class RemoteFetchError extends Error {
  public constructor(
    message: string,
    public readonly retryable: boolean,
    /** A short machine-readable cause: ETIMEDOUT, ECONNREFUSED, ENOTFOUND, SSRF, TOO_LARGE, … */
    public readonly code: string = 'EFETCH',
  ) {
    super(message);
    this.name = 'RemoteFetchError';
  }
}

/** The URL's scheme, credentials or address is not allowed (private network, loopback, …). */
export class SsrfBlockedError extends RemoteFetchError {
  public constructor(message: string) {
    super(message, false, 'SSRF');
    this.name = 'SsrfBlockedError';
  }
}
