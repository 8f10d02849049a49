import type { IncomingMessage } from 'node:http';
import { checkMediaType, mediaTypeAccepted } from '../../../../src/handlers/pipeline/RouteMediaTypes';

function request(method: string, headers: Record<string, string>): IncomingMessage {
  return { method, headers } as unknown as IncomingMessage;
}

describe('MediaTypes', () => {
  it('accepts listed types and, for application/*+json, every JSON-based application type', () => {
    const accepted = [ 'application/json', 'application/*+json' ];
    expect(mediaTypeAccepted('application/json', accepted)).toBe(true);
    expect(mediaTypeAccepted('application/activity+json', accepted)).toBe(true);
    expect(mediaTypeAccepted('text/vnd.example+json', accepted)).toBe(false);
    expect(mediaTypeAccepted('application/jsonx', accepted)).toBe(false);
    expect(mediaTypeAccepted('text/plain', accepted)).toBe(false);
  });

  it('refuses a body of another type with 415 on POST, PUT and PATCH only', () => {
    const turtle = { 'content-type': 'text/turtle; charset=utf-8', 'content-length': '10' };
    for (const method of [ 'POST', 'PUT', 'PATCH' ]) {
      expect(() => checkMediaType(request(method, turtle), [ 'application/json' ]))
        .toThrow(expect.objectContaining({ statusCode: 415 }) as Error);
    }
    expect(() => checkMediaType(request('DELETE', turtle), [ 'application/json' ])).not.toThrow();
    expect(() => checkMediaType(request('PUT', { 'content-type': 'Application/JSON', 'content-length': '2' }), [ 'application/json' ])).not.toThrow();
  });

  it('lets a request without a body or type through, refuses a typeless body, and takes anything on an empty list', () => {
    expect(() => checkMediaType(request('POST', {}), [ 'application/json' ])).not.toThrow();
    expect(() => checkMediaType(request('POST', { 'transfer-encoding': 'chunked' }), [ 'application/json' ]))
      .toThrow(/\(none\) is not accepted/u);
    expect(() => checkMediaType(request('PUT', { 'content-type': 'image/png', 'content-length': '9' }), [])).not.toThrow();
  });

  it('refuses a Content-Type that is not a media type on every route', () => {
    for (const type of [ '}{', 'text', 'text/plain/x', 'a b/c' ]) {
      expect(() => checkMediaType(request('POST', { 'content-type': type, 'content-length': '1' }), []))
        .toThrow(expect.objectContaining({ statusCode: 415 }) as Error);
    }
    expect(() => checkMediaType(request('GET', { 'content-type': '}{' }), [])).not.toThrow();
  });
});
