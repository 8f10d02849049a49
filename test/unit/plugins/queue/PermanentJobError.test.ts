import { PermanentJobError } from '../../../../src/plugins/queue/PermanentJobError';

describe('PermanentJobError', (): void => {
  it('is an Error with its own name and an optional cause', (): void => {
    const cause = new Error('socket');
    const error = new PermanentJobError('410 Gone', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('PermanentJobError');
    expect(error.cause).toBe(cause);
  });

  it('is recognised by class or by name', (): void => {
    const lookalike = new Error('from another module copy');
    lookalike.name = 'PermanentJobError';
    expect(PermanentJobError.is(new PermanentJobError('x'))).toBe(true);
    expect(PermanentJobError.is(lookalike)).toBe(true);
    expect(PermanentJobError.is(new Error('x'))).toBe(false);
    expect(PermanentJobError.is('PermanentJobError')).toBe(false);
  });

  it('calls 4xx permanent except 408 and 429', (): void => {
    const permanent = [ 400, 401, 403, 404, 408, 410, 422, 429, 500, 502, 503, 200 ]
      .filter((status): boolean => PermanentJobError.isPermanentStatus(status));
    expect(permanent).toEqual([ 400, 401, 403, 404, 410, 422 ]);
  });
});
