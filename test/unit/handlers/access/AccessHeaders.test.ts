import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { AccessHeaders } from '../../../../src/handlers/access/AccessHeaders';

function request(): IncomingMessage {
  return Object.assign(new PassThrough(), { method: 'GET', headers: {}}) as unknown as IncomingMessage;
}

describe('AccessHeaders', (): void => {
  it('keeps the headers set for a request, for that request only', (): void => {
    const first = request();
    const second = request();
    AccessHeaders.set(first, { 'wac-allow': 'user="read",public=""' });
    expect(AccessHeaders.of(first)).toEqual({ 'wac-allow': 'user="read",public=""' });
    expect(AccessHeaders.of(second)).toBeUndefined();
  });

  it('replaces what was set before for the same request', (): void => {
    const asked = request();
    AccessHeaders.set(asked, { 'wac-allow': 'user="read",public=""' });
    AccessHeaders.set(asked, { link: '<https://pod.example/.acl>; rel="acl"' });
    expect(AccessHeaders.of(asked)).toEqual({ link: '<https://pod.example/.acl>; rel="acl"' });
  });

  it('writes WAC-Allow with the modes of the requester and of the public, space-separated', (): void => {
    expect(AccessHeaders.wacAllow([ 'read', 'write', 'append' ], [ 'read' ])).toBe('user="read write append",public="read"');
    expect(AccessHeaders.wacAllow([], [])).toBe('user="",public=""');
  });
});
