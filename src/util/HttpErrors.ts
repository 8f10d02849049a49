// CSS's HttpError from its own module, not the package index: the embedded store's worker throws
// these too, and loading all of CSS there would cost it seconds at start-up.
import { HttpError } from '@solid/community-server/dist/util/errors/HttpError';

/**
 * The one HTTP error of the server: a status (`statusCode`), a machine-readable code (`errorCode`)
 * and a message, answered as `{ "error": code, "message": message }` (or an HTML page to a browser).
 * A CSS HttpError, so that CSS's pipeline answers it with its own status too.
 */
export class FedpodHttpError extends HttpError {
  public constructor(
    statusCode: number,
    errorCode: string,
    message: string,
    public readonly headers: Record<string, string> = {},
    /** More members of the answer's JSON body, beside `error` and `message` (the allowed values...). */
    public readonly details: Record<string, unknown> = {},
    cause?: unknown,
  ) {
    super(statusCode, 'FedpodHttpError', message, { errorCode, cause });
  }

  /** Whether `error` is an HTTP error with this code (CSS's own included). */
  public static hasCode(error: unknown, errorCode: string): boolean {
    return HttpError.isInstance(error) && error.errorCode === errorCode;
  }
}

export const badRequest = (message: string, code = 'bad_request'): FedpodHttpError =>
  new FedpodHttpError(400, code, message);
export const unauthorized = (message: string, code = 'unauthorized'): FedpodHttpError =>
  new FedpodHttpError(401, code, message, { 'www-authenticate': 'Bearer' });
export const forbidden = (message: string, code = 'forbidden'): FedpodHttpError =>
  new FedpodHttpError(403, code, message);
export const notFound = (message: string, code = 'not_found'): FedpodHttpError =>
  new FedpodHttpError(404, code, message);
export const conflict = (message: string, code = 'conflict'): FedpodHttpError =>
  new FedpodHttpError(409, code, message);
export const payloadTooLarge = (message: string): FedpodHttpError =>
  new FedpodHttpError(413, 'payload_too_large', message);
export const unsupportedMediaType = (message: string): FedpodHttpError =>
  new FedpodHttpError(415, 'unsupported_media_type', message);
export const preconditionFailed = (message: string): FedpodHttpError =>
  new FedpodHttpError(412, 'precondition_failed', message);
export const methodNotAllowed = (message: string, allow: string): FedpodHttpError =>
  new FedpodHttpError(405, 'method_not_allowed', message, { allow });
/** A dependency (e.g. the queue's Redis) is away: the client may retry after `retryAfterSeconds`. */
export const serviceUnavailable = (message: string, code = 'service_unavailable', retryAfterSeconds = 5): FedpodHttpError =>
  new FedpodHttpError(503, code, message, { 'retry-after': String(retryAfterSeconds) });
