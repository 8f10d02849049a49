import { RepresentationMetadata } from '@solid/community-server';
/**
 * Errors that carry an HTTP status and a machine-readable code, so handlers can answer
 * `{ "error": code, "message": message }` without guessing.
 * CSS's own HttpError subclasses are also recognised by `toErrorBody`.
 */
export class FedpodHttpError extends Error {
  private cssMetadata?: RepresentationMetadata;

  public constructor(
    public readonly statusCode: number,
    public readonly errorCode: string,
    message: string,
    public readonly headers: Record<string, string> = {},
    /** More members of the answer's JSON body, beside `error` and `message` (the allowed values...). */
    public readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'FedpodHttpError';
  }

  /**
   * CSS's pipeline knows an HTTP error by its status and metadata; with them, an error thrown inside
   * it (a JSON-LD body Fedpod's parser refuses, in CSS's conversion) is answered with its own status
   * instead of 500.
   */
  public get metadata(): RepresentationMetadata {
    this.cssMetadata ??= new RepresentationMetadata();
    return this.cssMetadata;
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
