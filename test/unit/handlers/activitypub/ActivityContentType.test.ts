import type { IncomingMessage } from 'node:http';
import { ACTIVITY_JSON, activityContentType } from '../../../../src/handlers/activitypub/ActivityContentType';

const AS_JSON = 'application/activity+json; charset=utf-8';
const LD_JSON = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"; charset=utf-8';
const PLAIN_JSON = 'application/json; charset=utf-8';

function request(accept?: string): IncomingMessage {
  return { headers: accept === undefined ? {} : { accept }} as unknown as IncomingMessage;
}

describe('activityContentType', (): void => {
  it('names the ActivityStreams media type', (): void => {
    expect(ACTIVITY_JSON).toBe('application/activity+json');
  });

  it.each([
    [ 'no Accept header', undefined ],
    [ 'an empty Accept header', '' ],
    [ 'a blank Accept header', '   ' ],
    [ '*/*', '*/*' ],
    [ 'application/*', 'application/*' ],
    [ 'application/activity+json', 'application/activity+json' ],
    [ 'application/activity+json in another case', 'Application/Activity+JSON' ],
    [ 'activity+json among others', 'text/html;q=0.5, application/activity+json, */*;q=0.1' ],
    [ 'activity+json ahead of ld+json by q', 'application/ld+json;q=0.8, application/activity+json' ],
    [ 'activity+json and ld+json at the same q (server order)', 'application/ld+json, application/activity+json' ],
  ])('answers activity+json for %s', (_, accept): void => {
    expect(activityContentType(request(accept))).toBe(AS_JSON);
  });

  it.each([
    [ 'ld+json with the ActivityStreams profile (Mastodon)',
      'application/ld+json; profile="https://www.w3.org/ns/activitystreams"' ],
    [ 'bare ld+json', 'application/ld+json' ],
    [ 'ld+json preferred by q', 'application/activity+json;q=0.5, application/ld+json' ],
    [ 'ld+json with activity+json refused', 'application/activity+json;q=0, */*' ],
  ])('answers ld+json with the ActivityStreams profile for %s', (_, accept): void => {
    expect(activityContentType(request(accept))).toBe(LD_JSON);
  });

  it.each([
    [ 'application/json', 'application/json' ],
    [ 'json preferred by q', 'application/activity+json;q=0.2, application/ld+json;q=0.3, application/json' ],
  ])('answers plain JSON for %s', (_, accept): void => {
    expect(activityContentType(request(accept))).toBe(PLAIN_JSON);
  });

  it.each([
    [ 'text/turtle', 'text/turtle' ],
    [ 'Turtle preferred over activity+json', 'text/turtle, application/activity+json;q=0.5' ],
    [ 'Turtle preferred by a Solid client', 'text/turtle;q=1.0, application/ld+json;q=0.9, */*;q=0.1' ],
    [ 'N-Triples', 'application/n-triples' ],
    [ 'text/html (a browser)', 'text/html' ],
    [ 'a browser Accept header', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' ],
    [ 'text/*', 'text/*' ],
  ])('answers undefined when the client prefers another representation: %s', (_, accept): void => {
    expect(activityContentType(request(accept))).toBeUndefined();
  });

  it.each([
    [ 'an unrelated type', 'image/png' ],
    [ 'every JSON type refused', 'application/activity+json;q=0, application/ld+json;q=0, application/json;q=0' ],
    [ 'everything refused', '*/*;q=0' ],
  ])('answers undefined when nothing offered is acceptable: %s', (_, accept): void => {
    expect(activityContentType(request(accept))).toBeUndefined();
  });
});
