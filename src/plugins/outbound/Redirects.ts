import { RemoteFetchError, SsrfBlockedError } from './OutboundErrors';
import type { SsrfGuard } from './SsrfGuard';

/** The statuses whose Location is followed. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([ 301, 302, 303, 307, 308 ]);

/** The URL without its fragment, which is never sent. */
export function withoutFragment(url: URL): URL {
  if (url.hash === '') {
    return url;
  }
  const copy = new URL(url.href);
  copy.hash = '';
  return copy;
}

/**
 * Where a redirect leads, checked as the first URL was: at most `maxRedirects` of them (`redirects`
 * followed so far), a valid Location, never from https down to http, and past the guard.
 * @param original - The URL first asked for, for the messages.
 */
export function followRedirect(guard: SsrfGuard, current: URL, location: string, redirects: number, maxRedirects: number,
  original: string): URL {
  if (redirects >= maxRedirects) {
    throw new RemoteFetchError(`More than ${maxRedirects} redirects from ${original}`, false, 'TOO_MANY_REDIRECTS');
  }
  let next: URL;
  try {
    next = new URL(location, current);
  } catch {
    throw new RemoteFetchError(`Invalid redirect location from ${current.href}`, false, 'BAD_REDIRECT');
  }
  if (current.protocol === 'https:' && next.protocol !== 'https:') {
    throw new SsrfBlockedError(`Refusing a redirect from https to ${next.protocol}`);
  }
  return withoutFragment(guard.checkUrl(next));
}
