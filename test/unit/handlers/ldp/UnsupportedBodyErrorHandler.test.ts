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

function args(error: HttpError, headers: Record<string, string>, method = 'PUT'): ErrorHandlerArgs {
  return { error, request: { method, url: '/inbox', headers } as unknown as HttpRequest };
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

  it('answers 406 instead of CSS\'s 501 to a read asking for a type the resource cannot be converted to', async(): Promise<void> => {
    const noPath = new NotImplementedHttpError('No conversion path could be made from text/html to image/png:1.');
    const description = await handler.handle(args(noPath, { accept: 'image/png' }, 'GET'));
    expect(description.statusCode).toBe(406);
    expect(inner.errors.at(-1)?.message).toBe('This resource cannot be served as image/png.');
    expect((await handler.handle(args(noPath, { accept: 'image/png' }, 'HEAD'))).statusCode).toBe(406);
    expect((await handler.handle(args(new NotImplementedHttpError('no'), {}, 'GET'))).statusCode).toBe(501);
  });

  it('leaves other errors, and 501s of requests without a body, as they are', async(): Promise<void> => {
    expect((await handler.handle(args(new BadRequestHttpError('bad'), { 'content-type': 'text/turtle' }))).statusCode).toBe(400);
    expect((await handler.handle(args(new NotImplementedHttpError('no'), {}))).statusCode).toBe(501);
  });
});
