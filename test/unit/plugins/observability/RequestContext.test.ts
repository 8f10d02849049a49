import { RequestContext } from '../../../../src/plugins/observability/RequestContext';

describe('RequestContext', (): void => {
  it('carries the request id through asynchronous work, and has none outside', async(): Promise<void> => {
    expect(RequestContext.currentId()).toBeUndefined();
    const seen = await RequestContext.run({ id: 'r-1' }, async(): Promise<(string | undefined)[]> => {
      const first = RequestContext.currentId();
      await new Promise((resolve): void => {
        setTimeout(resolve, 5);
      });
      return [ first, RequestContext.currentId() ];
    });
    expect(seen).toEqual([ 'r-1', 'r-1' ]);
    expect(RequestContext.currentId()).toBeUndefined();
  });

  it('keeps concurrent requests apart', async(): Promise<void> => {
    const ids = await Promise.all([ 'a', 'b', 'c' ].map(async(id): Promise<string | undefined> =>
      RequestContext.run({ id }, async(): Promise<string | undefined> => {
        await new Promise((resolve): void => {
          setTimeout(resolve, 3);
        });
        return RequestContext.currentId();
      })));
    expect(ids).toEqual([ 'a', 'b', 'c' ]);
  });

  it('takes a well-formed client id and makes a new one otherwise', (): void => {
    expect(RequestContext.idFor('abc-123_X.y:z')).toBe('abc-123_X.y:z');
    for (const bad of [ undefined, '', 'has space', 'line\nbreak', 'x'.repeat(129), [ 'a', 'b' ], '<script>' ]) {
      const id = RequestContext.idFor(bad);
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^[0-9a-f-]{36}$/u);
    }
    expect(RequestContext.idFor(undefined)).not.toBe(RequestContext.idFor(undefined));
  });
});

describe('RequestContext.outside', (): void => {
  it('runs work with no current request, inside a request too', async(): Promise<void> => {
    const seen = await RequestContext.run({ id: 'r-2' }, async(): Promise<(string | undefined)[]> => {
      const inner = await RequestContext.outside(async(): Promise<string | undefined> => {
        await Promise.resolve();
        return RequestContext.currentId();
      });
      return [ inner, RequestContext.currentId() ];
    });
    expect(seen).toEqual([ undefined, 'r-2' ]);
  });
});
