import type { IncomingMessage } from 'node:http';
import { negotiate } from '../http/HttpUtil';

export const ACTIVITY_JSON = 'application/activity+json';
const AS_PROFILE = 'https://www.w3.org/ns/activitystreams';

/**
 * The content type to answer an ActivityPub GET with, or undefined when the client prefers something
 * else (Turtle for Solid clients, HTML...), which other handlers serve. `*\/*` and no Accept get
 * activity+json; `application/ld+json` keeps the ActivityStreams profile.
 */
export function activityContentType(request: IncomingMessage): string | undefined {
  const chosen = negotiate(request.headers.accept, [ ACTIVITY_JSON, 'application/ld+json', 'application/json',
    'text/turtle', 'application/n-triples', 'text/html' ]);
  if (!chosen) {
    return undefined;
  }
  switch (chosen.type) {
    case ACTIVITY_JSON: return `${ACTIVITY_JSON}; charset=utf-8`;
    case 'application/ld+json': return `application/ld+json; profile="${AS_PROFILE}"; charset=utf-8`;
    case 'application/json': return 'application/json; charset=utf-8';
    default: return undefined;
  }
}
