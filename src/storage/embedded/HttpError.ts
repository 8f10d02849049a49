/**
 * An error that already knows its HTTP status, so handlers can throw and the
 * server turns it into a plain-text response in one place.
 */
export class HttpError extends Error {
  public constructor(
    public readonly status: number,
    message: string,
    public readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
