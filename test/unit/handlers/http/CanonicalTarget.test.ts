import { canonicalTarget } from '../../../../src/handlers/http/CanonicalTarget';

describe('canonicalTarget', () => {
  it.each([
    [ '/objects/abc', '/objects/abc', '' ],
    [ '/objects/abc?page=true', '/objects/abc', '?page=true' ],
    [ '/%6fbjects/%61bc', '/objects/abc', '' ],
    [ '//webhooks//secret', '/webhooks/secret', '' ],
    [ '/notes/a%20b', '/notes/a%20b', '' ],
    [ '/notes/a b', '/notes/a%20b', '' ],
    [ '/notes/x#fragment', '/notes/x', '' ],
  ])('gives %s one spelling: %s', (raw, pathname, search) => {
    expect(canonicalTarget(raw)).toEqual({ pathname, search });
  });

  it.each([ '*', 'http://other.example/x', '/notes/../objects/x', '/./x', '/notes/%E0%A4%A' ])('refuses %s', (raw) => {
    expect(canonicalTarget(raw)).toBeUndefined();
  });
});
