import type { ErrorHandlerArgs, HttpError, HttpRequest, ResponseDescription } from '@solid/community-server';
import { BadRequestHttpError, ErrorHandler, NotImplementedHttpError } from '@solid/community-server';
import { UnsupportedBodyErrorHandler } from '../../../../src/handlers/ldp/UnsupportedBodyErrorHandler';

/** Stands for CSS's error handler chain: answers with the status of the error it gets. */
class StatusErrorHandler extends ErrorHandler {
  public readonly errors: Error[] = [];

  public async handle({ error }: ErrorHandlerArgs): Promise<ResponseDescription> {
    this.errors.push(error);
    return { statusCode: (error as { statusCode: number }).statusCode } as ResponseDescription;
  }
}

function args(error: HttpError, headers: Record<string, string>): ErrorHandlerArgs {
  return { error, request: { method: 'PUT', url: '/inbox', headers } as unknown as HttpRequest };
}

describe('UnsupportedBodyErrorHandler', (): void => {
  const inner = new StatusErrorHandler();
  const handler = new UnsupportedBodyErrorHandler(inner);

  it('answers 415 instead of CSS\'s 501 to a body it cannot use', async(): Promise<void> => {
    const description = await handler.handle(args(new NotImplementedHttpError('Only triples in the default graph are supported.'),
      { 'content-type': 'application/trig', 'content-length': '20' }));
    expect(description.statusCode).toBe(415);
    expect(inner.errors.at(-1)?.message).toContain('Only triples in the default graph are supported.');
  });

  it('leaves other errors, and 501s of requests without a body, as they are', async(): Promise<void> => {
    expect((await handler.handle(args(new BadRequestHttpError('bad'), { 'content-type': 'text/turtle' }))).statusCode).toBe(400);
    expect((await handler.handle(args(new NotImplementedHttpError('no'), {}))).statusCode).toBe(501);
  });
});
