import { LdpPaths } from '../../../../src/handlers/ldp/LdpPaths';
import { generatedName, newResourceName } from '../../../../src/plugins/ldp/ResourceIds';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u;
const CONTAINER = 'http://localhost:3000/notes/';

/** The properties every minted name must have, whatever the Slug was. */
function expectSafeName(name: string): void {
  expect(name.length).toBeGreaterThan(0);
  expect(name.length).toBeLessThanOrEqual(128);
  // Only unreserved URI characters: nothing to percent-encode, no path separators.
  expect(name).toMatch(/^[A-Za-z0-9._~-]+$/u);
  expect(name).not.toMatch(/^[.-]/u);
  // Appended to the container IRI, it names one direct child of that container.
  const iri = new URL(name, CONTAINER).href;
  expect(iri).toBe(`${CONTAINER}${name}`);
  expect(iri.slice(CONTAINER.length)).not.toContain('/');
}

async function nextMillisecond(): Promise<void> {
  const start = Date.now();
  while (Date.now() === start) {
    await new Promise((resolve): void => {
      setTimeout(resolve, 1);
    });
  }
}

describe('ResourceIds', (): void => {
  describe('newResourceName', (): void => {
    it.each([
      [ 'hello', 'hello' ],
      [ 'my-note_1.txt', 'my-note_1.txt' ],
      [ 'tilde~ok', 'tilde~ok' ],
      [ '  padded  ', 'padded' ],
      [ 'My Note', 'My-Note' ],
      [ 'a   b', 'a-b' ],
    ])('keeps a usable Slug %j as %j', (slug, expected): void => {
      expect(newResourceName(slug)).toBe(expected);
    });

    it.each([
      [ '../x' ],
      [ '../../etc/passwd' ],
      [ '..\\..\\windows' ],
      [ 'a/b/c' ],
      [ '/absolute' ],
      [ 'a/../b' ],
      [ './hidden' ],
      [ '.hidden' ],
      [ '%2e%2e%2fsecret' ],
      [ 'a?query=1#frag' ],
      [ 'café crème' ],
      [ '日本語.txt' ],
      [ 'emoji 😀 name' ],
      [ 'trailing---' ],
      [ '-leading' ],
      [ 'x'.repeat(500) ],
      [ `${'a'.repeat(127)}/b` ],
      [ 'new\nline\ttab' ],
      [ '<script>alert(1)</script>' ],
    ])('turns the Slug %j into one safe child name', (slug): void => {
      const name = newResourceName(slug);
      expectSafeName(name);
      // Cleaning keeps what it can of the client's choice rather than discarding it.
      expect(UUID_V7.test(name)).toBe(false);
    });

    it('cleans path traversal out of a Slug', (): void => {
      expect(newResourceName('../x')).toBe('x');
      expect(newResourceName('a/b')).not.toContain('/');
      expect(newResourceName('../../etc/passwd')).not.toMatch(/\.\./u);
    });

    it('keeps the ASCII part of a unicode Slug', (): void => {
      const name = newResourceName('café');
      expect(name.startsWith('caf')).toBe(true);
      expectSafeName(name);
    });

    it.each([
      [ 'no Slug', undefined ],
      [ 'an empty Slug', '' ],
      [ 'only spaces', '   ' ],
      [ '.', '.' ],
      [ '..', '..' ],
      [ '...', '...' ],
      [ 'only slashes', '///' ],
      [ 'only dashes', '---' ],
      [ 'only non-ASCII', 'привет' ],
      [ 'only emoji', '😀😀' ],
      [ 'dots and slashes', '../..' ],
    ])('generates a UUIDv7 name for %s', (_name, slug): void => {
      const name = newResourceName(slug);
      expect(name).toMatch(UUID_V7);
      expectSafeName(name);
    });

    it('generates a different name each time', (): void => {
      const names = new Set(Array.from({ length: 1000 }, (): string => newResourceName(undefined)));
      expect(names.size).toBe(1000);
    });

    // BUG (lead to decide where to fix): newResourceName keeps Slugs ending in `.acl`, `.meta` or `.acr`, which
    // LdpPaths.isReservedPath and CSS's auxiliary strategies read as the ACL / description resource of a
    // sibling. LdpCreateHandler (src/handlers/ldp/LdpCreateHandler.ts:67) then writes `POST /notes/` with
    // `Slug: victim.acl` as an ordinary member /notes/victim.acl (data graph + ldp:contains), which CSS reads
    // as the ACL of /notes/victim. CSS's own POST answers 403 here (Solid protocol §5.3: a Slug that targets
    // an auxiliary resource MUST get 403). If the fix is a 403 in LdpCreateHandler instead of a different
    // name here, move this test to the handler's tests rather than dropping `.failing`.
    it.each([
      [ 'victim.acl' ],
      [ 'victim.meta' ],
      [ 'victim.acr' ],
      [ 'x/.acl' ],
    ])('never mints a name that is a reserved (auxiliary) path, e.g. for Slug %j', (slug): void => {
      const name = newResourceName(slug);
      const paths = new LdpPaths('http://localhost:3000/');
      expect(paths.isReservedPath(`/notes/${name}`)).toBe(false);
    });
  });

  describe('generatedName', (): void => {
    it('is a UUIDv7', (): void => {
      expect(generatedName()).toMatch(UUID_V7);
    });

    it('carries the given instant as its time', (): void => {
      const at = new Date('2026-05-01T10:20:30.456Z');
      const name = generatedName(at);
      expect(name).toMatch(UUID_V7);
      expect(Number.parseInt(name.replaceAll('-', '').slice(0, 12), 16)).toBe(at.getTime());
      expect(generatedName(at)).not.toBe(name);
    });

    it('sorts later names after earlier ones, across milliseconds', async(): Promise<void> => {
      const names: string[] = [];
      for (let i = 0; i < 5; i++) {
        names.push(generatedName());
        await nextMillisecond();
      }
      expect([ ...names ].sort()).toEqual(names);
      expect(new Set(names).size).toBe(names.length);
    });

    it('sorts later names after earlier ones within the same millisecond', (): void => {
      const names = Array.from({ length: 2000 }, (): string => generatedName());
      expect([ ...names ].sort()).toEqual(names);
      expect(new Set(names).size).toBe(names.length);
    });

    it('orders names minted by newResourceName and generatedName together by time', async(): Promise<void> => {
      const first = newResourceName(undefined);
      await nextMillisecond();
      const second = generatedName();
      await nextMillisecond();
      const third = newResourceName('');
      expect([ third, first, second ].sort()).toEqual([ first, second, third ]);
    });
  });
});
