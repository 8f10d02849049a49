import type { IncomingMessage } from 'node:http';
import { remoteIdOf } from '../../../../src/handlers/access/RemoteIds';

function withUrl(url: string | undefined): IncomingMessage {
  return { url, headers: {}} as unknown as IncomingMessage;
}

describe('RemoteIds', (): void => {
  describe('remoteIdOf', (): void => {
    it('reads the id parameter, percent-decoded', (): void => {
      expect(remoteIdOf(withUrl(`/remote?id=${encodeURIComponent('https://r.example/n/1?a=b&c=d')}`))).toBe('https://r.example/n/1?a=b&c=d');
      expect(remoteIdOf(withUrl('/remote?x=1&id=https://r.example/n/2'))).toBe('https://r.example/n/2');
    });

    it('gives the first of several ids and an empty one as empty', (): void => {
      expect(remoteIdOf(withUrl('/remote?id=a&id=b'))).toBe('a');
      expect(remoteIdOf(withUrl('/remote?id='))).toBe('');
    });

    it('gives undefined without a query, without an id or without a URL', (): void => {
      expect(remoteIdOf(withUrl('/remote'))).toBeUndefined();
      expect(remoteIdOf(withUrl('/remote?other=1'))).toBeUndefined();
      expect(remoteIdOf(withUrl(undefined))).toBeUndefined();
    });
  });
});
