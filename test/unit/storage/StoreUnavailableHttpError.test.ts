import { BadRequestHttpError, HttpError, InternalServerError } from '@solid/community-server';
import { STORE_RETRY_AFTER_SECONDS, StoreUnavailableHttpError } from '../../../src/storage/StoreUnavailableHttpError';

describe('StoreUnavailableHttpError', (): void => {
  it('is a CSS 503 with the store_unavailable code, keeping its cause', (): void => {
    const cause = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const error = new StoreUnavailableHttpError('The store is away', { cause });
    expect(HttpError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 503, errorCode: 'store_unavailable', message: 'The store is away', name: 'StoreUnavailableHttpError' });
    expect(error.cause).toBe(cause);
    expect(STORE_RETRY_AFTER_SECONDS).toBeGreaterThan(0);
  });

  it('knows its own kind from other errors, even another 503', (): void => {
    expect(StoreUnavailableHttpError.isInstance(new StoreUnavailableHttpError('away'))).toBe(true);
    expect(StoreUnavailableHttpError.isInstance(new HttpError(503, 'HttpError', 'busy'))).toBe(false);
    expect(StoreUnavailableHttpError.isInstance(new BadRequestHttpError('bad', { errorCode: 'store_unavailable' }))).toBe(false);
    expect(StoreUnavailableHttpError.isInstance(new InternalServerError('x'))).toBe(false);
    expect(StoreUnavailableHttpError.isInstance(new Error('away'))).toBe(false);
  });
});
