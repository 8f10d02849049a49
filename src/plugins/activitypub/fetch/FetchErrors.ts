// The errors of the server-wide outbound guard (src/plugins/outbound/), where ActivityPub code has always imported them.
export { RemoteFetchError, SsrfBlockedError } from '../../outbound/OutboundErrors';

/** A remote document was fetched but is not what was asked for (status, not JSON, id mismatch, …). */
export class RemoteDocumentError extends Error {
  public constructor(
    message: string,
    public readonly url: string,
    /** The HTTP status, when the answer was not a success. */
    public readonly status?: number,
  ) {
    super(message);
    this.name = 'RemoteDocumentError';
  }
}
