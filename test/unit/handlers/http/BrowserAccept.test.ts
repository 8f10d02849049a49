import type { IncomingMessage } from 'node:http';
import { prefersHtml } from '../../../../src/handlers/http/BrowserAccept';

const asking = (accept?: string): IncomingMessage => ({ headers: accept === undefined ? {} : { accept } }) as IncomingMessage;

describe('prefersHtml', (): void => {
  it.each([
    [ 'Chromium and Firefox navigating', 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8' ],
    [ 'Safari', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' ],
    [ 'a client that ranks HTML first', 'text/html, application/activity+json;q=0.5' ],
  ])('is true for %s', (name, accept): void => {
    expect(prefersHtml(asking(accept))).toBe(true);
  });

  it.each([
    [ 'Mastodon', 'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"' ],
    [ 'an RDF client', 'text/turtle;q=1.0, application/ld+json;q=0.5, text/html;q=0.2' ],
    [ 'any type', '*/*' ],
    [ 'no Accept at all', undefined ],
    [ 'HTML refused', 'text/html;q=0, */*' ],
    [ 'JSON ranked above HTML', 'application/json, text/html;q=0.9' ],
  ])('is false for %s', (name, accept): void => {
    expect(prefersHtml(asking(accept))).toBe(false);
  });
});
