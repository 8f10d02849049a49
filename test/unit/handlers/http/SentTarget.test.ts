import type { IncomingMessage } from 'node:http';
import { SentTarget } from '../../../../src/handlers/http/SentTarget';

describe('SentTarget', (): void => {
  it('gives the target as sent, once the pipeline has kept it', (): void => {
    const request = { url: '/objects/abc', headers: {}} as unknown as IncomingMessage;
    SentTarget.set(request, '/%6fbjects/abc?x=1');
    expect(SentTarget.of(request)).toBe('/%6fbjects/abc?x=1');
  });

  it('gives the request URL when nothing was kept, and / without one', (): void => {
    expect(SentTarget.of({ url: '/inbox', headers: {}} as unknown as IncomingMessage)).toBe('/inbox');
    expect(SentTarget.of({ headers: {}} as unknown as IncomingMessage)).toBe('/');
  });
});
