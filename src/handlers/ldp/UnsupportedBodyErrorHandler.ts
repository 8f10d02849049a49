import type { ErrorHandlerArgs, ResponseDescription } from '@solid/community-server';
import type { HttpRequest } from '@solid/community-server';
import { ErrorHandler, HttpError, NotImplementedHttpError, UnsupportedMediaTypeHttpError } from '@solid/community-server';
import { negotiate } from '../http/HttpUtil';

/** What CSS's error handler can write an error as. */
const ERROR_TYPES = [ 'application/json', 'text/html', 'text/turtle', 'application/ld+json', 'text/plain' ];

/**
 * CSS answers 501 Not Implemented to a body it cannot use: no converter for its media type (e.g.
 * an activity+json PUT), triples outside the default graph (TriG, N-Quads), a patch with GRAPH.
 * That is the client's request, not a missing server feature: answer 415 instead, so clients and
 * monitoring do not take it for a server error. Likewise a read asking for a type the resource
 * cannot be converted to (an HTML page as image/png) is a 406, as HTTP says. Other errors pass
 * through unchanged. Every error is written in a type the client takes, JSON when it takes none of them.
 */
export class UnsupportedBodyErrorHandler extends ErrorHandler {
  public constructor(private readonly errorHandler: ErrorHandler) {
    super();
  }

  public override async canHandle(input: ErrorHandlerArgs): Promise<void> {
    await this.errorHandler.canHandle(this.mapped(input));
  }

  public async handle(input: ErrorHandlerArgs): Promise<ResponseDescription> {
    return this.errorHandler.handle(this.mapped(input));
  }

  private mapped(original: ErrorHandlerArgs): ErrorHandlerArgs {
    // An error is written as JSON (or what else the client takes of CSS's error types), even to a
    // client that asked only for, say, image/png: CSS would fail to convert it and write plain text.
    const input = negotiate(original.request.headers.accept, ERROR_TYPES) ?
      original :
      { ...original, request: Object.assign(Object.create(original.request) as HttpRequest,
        { headers: { ...original.request.headers, accept: 'application/json' }}) };
    const { error, request } = input;
    const hasBody = request.headers['content-type'] !== undefined || request.headers['transfer-encoding'] !== undefined ||
      Number(request.headers['content-length'] ?? 0) > 0;
    if (!NotImplementedHttpError.isInstance(error)) {
      return input;
    }
    if (!hasBody && (request.method === 'GET' || request.method === 'HEAD') && /conversion/iu.test(error.message)) {
      return { ...input, error: new HttpError(406, 'NotAcceptableHttpError',
        `This resource cannot be served as ${original.request.headers.accept ?? 'asked'}.`, { cause: error }) };
    }
    if (!hasBody) {
      return input;
    }
    return { ...input, error: new UnsupportedMediaTypeHttpError(`This body cannot be stored here: ${error.message}`, { cause: error }) };
  }
}
