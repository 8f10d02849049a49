import type { ErrorHandlerArgs, ResponseDescription } from '@solid/community-server';
import { ErrorHandler, NotImplementedHttpError, UnsupportedMediaTypeHttpError } from '@solid/community-server';

/**
 * CSS answers 501 Not Implemented to a body it cannot use: no converter for its media type (e.g.
 * an activity+json PUT), triples outside the default graph (TriG, N-Quads), a patch with GRAPH.
 * That is the client's request, not a missing server feature: answer 415 instead, so clients and
 * monitoring do not take it for a server error. Other errors pass through unchanged.
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

  private mapped(input: ErrorHandlerArgs): ErrorHandlerArgs {
    const { error, request } = input;
    const hasBody = request.headers['content-type'] !== undefined || request.headers['transfer-encoding'] !== undefined ||
      Number(request.headers['content-length'] ?? 0) > 0;
    if (!hasBody || !NotImplementedHttpError.isInstance(error)) {
      return input;
    }
    return { ...input, error: new UnsupportedMediaTypeHttpError(`This body cannot be stored here: ${error.message}`, { cause: error }) };
  }
}
