import type { IncomingMessage } from 'node:http';
import type { HttpRequest } from '@solid/community-server';
import { OriginalUrlExtractor, SingleRootIdentifierStrategy } from '@solid/community-server';
import { LdpPaths } from '../../../../src/handlers/ldp/LdpPaths';

function request(url: string | undefined, host = 'localhost:3000'): IncomingMessage {
  return { url, headers: { host }, method: 'GET' } as unknown as IncomingMessage;
}

describe('LdpPaths', (): void => {
  describe('with a base at the root', (): void => {
    const paths = new LdpPaths('http://localhost:3000/');

    it('exposes the base URL with a trailing slash', (): void => {
      expect(paths.baseUrl).toBe('http://localhost:3000/');
      expect(new LdpPaths('http://localhost:3000').baseUrl).toBe('http://localhost:3000/');
    });

    it.each([
      [ '/', 'http://localhost:3000/', '/' ],
      [ '/notes/', 'http://localhost:3000/notes/', '/notes/' ],
      [ '/notes/a', 'http://localhost:3000/notes/a', '/notes/a' ],
      [ '/notes/a%20b', 'http://localhost:3000/notes/a%20b', '/notes/a%20b' ],
      [ '/notes/caf%C3%A9', 'http://localhost:3000/notes/caf%C3%A9', '/notes/caf%C3%A9' ],
      [ '/notes/a.b..c', 'http://localhost:3000/notes/a.b..c', '/notes/a.b..c' ],
      [ '/notes/...', 'http://localhost:3000/notes/...', '/notes/...' ],
      [ '/notes/.hidden', 'http://localhost:3000/notes/.hidden', '/notes/.hidden' ],
    ])('maps %s to %s', (url, iri, path): void => {
      const target = paths.resolve(request(url));
      expect(target).toBeDefined();
      expect(target!.iri).toBe(iri);
      expect(target!.path).toBe(path);
    });

    it('treats a missing URL as the root', (): void => {
      expect(paths.resolve(request(undefined))?.iri).toBe('http://localhost:3000/');
    });

    it('keeps the query out of the IRI and gives it parsed', (): void => {
      const target = paths.resolve(request('/notes/?page=2&after=http%3A%2F%2Fx%2Fy'))!;
      expect(target.iri).toBe('http://localhost:3000/notes/');
      expect(target.path).toBe('/notes/');
      expect(target.query.get('page')).toBe('2');
      expect(target.query.get('after')).toBe('http://x/y');
    });

    it('leaves fragments out of the IRI', (): void => {
      expect(paths.resolve(request('/notes/a#frag'))?.iri).toBe('http://localhost:3000/notes/a');
    });

    it('uses the configured base, never the Host header', (): void => {
      const target = paths.resolve(request('/notes/a', 'evil.example:8080'))!;
      expect(target.iri).toBe('http://localhost:3000/notes/a');
    });

    it('keeps the configured origin for absolute-form request targets', (): void => {
      const target = paths.resolve(request('http://evil.example/notes/a'));
      if (target) {
        expect(target.iri).toBe('http://localhost:3000/notes/a');
      }
    });

    it.each([
      [ '/notes/../secret' ],
      [ '/notes/./a' ],
      [ '/notes/..' ],
      [ '/notes/.' ],
      [ '/..' ],
      [ '/../etc/passwd' ],
      [ '/a/b/../../c' ],
      [ '/notes/../notes/a' ],
    ])('refuses the dot segments in %s', (url): void => {
      expect(paths.resolve(request(url))).toBeUndefined();
    });

    it('resolves percent-encoded dot segments (%2e) inside the base, never above it', (): void => {
      // The WHATWG URL parser removes `%2e%2e` like `..`; CSS does the same. Whatever the result, it stays
      // under the base.
      for (const url of [ '/notes/%2e%2e/secret', '/%2e%2e/%2e%2e/etc/passwd', '/notes/.%2E/x', '/%2e%2e' ]) {
        const target = paths.resolve(request(url));
        if (target) {
          expect(target.iri.startsWith('http://localhost:3000/')).toBe(true);
          expect(target.path.startsWith('/')).toBe(true);
          expect(target.iri).toBe(`http://localhost:3000${target.path}`);
        }
      }
    });

    it('leaves encoded dot segments to CSS (answers undefined), so only CSS resolves them', (): void => {
      expect(paths.resolve(request('/notes/%2e%2e/secret'))).toBeUndefined();
    });

    // Fedpod's fast LDP handlers and CSS's own LDP pipeline read and write the same graphs, so for any URL
    // the fast paths accept they must name the same resource as CSS's target extractor (OriginalUrlExtractor,
    // includeQueryString false, as in css:config/ldp/handler/components/request-parser.json).
    // LdpPaths.resolve (src/handlers/ldp/LdpPaths.ts:24-29) uses `new URL(raw, base)` as is, while CSS
    // re-encodes every segment with encodeURIComponent(decodeURIComponent(segment)) and collapses `//`:
    // e.g. a resource CSS stored for `PUT /notes/a:b` has the IRI .../notes/a%3Ab, and the fast GET of
    // `/notes/a:b` looks up .../notes/a:b and answers 404. `//evil.example/notes/a` is even read as a
    // network-path reference whose first segment is dropped as a host (Fedpod: /notes/a, CSS:
    // /evil.example/notes/a).
    describe('names the same resource as CSS', (): void => {
      const extractor = new OriginalUrlExtractor({
        identifierStrategy: new SingleRootIdentifierStrategy('http://localhost:3000/'),
        includeQueryString: false,
      });
      const cssIri = async(url: string): Promise<string> => (await extractor.handle({
        request: { url, headers: { host: 'localhost:3000' }, socket: {}} as unknown as HttpRequest,
      })).path;

      it.each([
        [ '/notes/a' ],
        [ '/notes/' ],
        [ '/notes/a%20b' ],
        [ '/notes/caf%C3%A9' ],
        [ '/notes/a%2Fb' ],
        [ '/notes/a?page=2' ],
      ])('for %s', async(url): Promise<void> => {
        const target = paths.resolve(request(url));
        expect(target).toBeDefined();
        expect(target!.iri).toBe(await cssIri(url));
      });

      it.each([
        [ '/notes/a:b' ],
        [ '/users/@alice' ],
        [ '/notes/a+b' ],
        [ '/notes/a,b;c=d' ],
        [ '/notes/caf%c3%a9' ],
        [ '/notes/%7Euser' ],
        [ '/notes//a' ],
        [ '//evil.example/notes/a' ],
      ])('for %s, or leaves it to CSS', async(url): Promise<void> => {
        const target = paths.resolve(request(url));
        if (target) {
          expect(target.iri).toBe(await cssIri(url));
        }
      });
    });
  });

  describe('with a base below the root', (): void => {
    const paths = new LdpPaths('https://pod.example/users/alice');

    it('maps paths under the base path, with the path relative to the base', (): void => {
      expect(paths.baseUrl).toBe('https://pod.example/users/alice/');
      const target = paths.resolve(request('/users/alice/notes/a'))!;
      expect(target.iri).toBe('https://pod.example/users/alice/notes/a');
      expect(target.path).toBe('/notes/a');
      expect(paths.resolve(request('/users/alice/'))?.path).toBe('/');
    });

    it('answers undefined for paths outside the base path', (): void => {
      expect(paths.resolve(request('/users/bob/notes/a'))).toBeUndefined();
      expect(paths.resolve(request('/'))).toBeUndefined();
      expect(paths.resolve(request('/users/alicex/notes'))).toBeUndefined();
      expect(paths.resolve(request('/users/alice/../bob/'))).toBeUndefined();
      const encoded = paths.resolve(request('/users/alice/%2e%2e/bob/'));
      expect(encoded).toBeUndefined();
    });

    it('gives paths that isReservedPath judges relative to the base', (): void => {
      const target = paths.resolve(request('/users/alice/.well-known/openid-configuration'))!;
      expect(paths.isReservedPath(target.path)).toBe(true);
      expect(paths.isReservedPath(paths.resolve(request('/users/alice/notes/a'))!.path)).toBe(false);
    });
  });

  describe('isReservedPath', (): void => {
    const paths = new LdpPaths('http://localhost:3000/');

    it.each([
      [ '/.well-known/openid-configuration' ],
      [ '/.well-known/' ],
      [ '/.internal/accounts/data' ],
      [ '/.account/login/' ],
      [ '/.acl' ],
      [ '/notes/.acl' ],
      [ '/notes/a.acl' ],
      [ '/notes/a.meta' ],
      [ '/notes/.meta' ],
      [ '/notes/a.acr' ],
    ])('reserves %s', (path): void => {
      expect(paths.isReservedPath(path)).toBe(true);
    });

    it.each([
      [ '/' ],
      [ '/notes/' ],
      [ '/notes/a' ],
      [ '/notes/acl' ],
      [ '/notes/a.acl.txt' ],
      [ '/notes/metadata' ],
      [ '/well-known/' ],
      [ '/notes/.well-known-ish' ],
      [ '/internal/x' ],
    ])('leaves %s to the data handlers', (path): void => {
      expect(paths.isReservedPath(path)).toBe(false);
    });
  });
});
