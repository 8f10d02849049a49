import type { IncomingMessage } from 'node:http';

/** Media types of machine readers: a request that ranks one of them above HTML wants data. */
const DATA_TYPES = [ 'application/activity+json', 'application/ld+json', 'application/json', 'text/turtle', 'application/n-triples',
  'application/n-quads', 'application/rdf+xml', 'application/trig', 'text/n3' ];

/** The quality the Accept header gives `type` (its exact range, else `type/*`, else `* /*`); 0 when not accepted. */
function quality(ranges: { range: string; q: number }[], type: string): number {
  const [ major ] = type.split('/');
  for (const candidate of [ type, `${major}/*`, '*/*' ]) {
    const found = ranges.find((entry): boolean => entry.range === candidate);
    if (found) {
      return found.q;
    }
  }
  return 0;
}

/**
 * Whether the request is a browser's, asking for a page: its Accept names `text/html` (or XHTML)
 * itself, and ranks it at least as high as every data type it also names. ActivityPub and RDF
 * clients (`application/activity+json`, `text/turtle`, none or `* /*`) get data as before.
 */
export function prefersHtml(request: IncomingMessage): boolean {
  const header = request.headers.accept;
  if (typeof header !== 'string' || !/text\/html|application\/xhtml\+xml/u.test(header)) {
    return false;
  }
  const ranges = header.split(',').map((part): { range: string; q: number } => {
    const [ range, ...parameters ] = part.trim().toLowerCase().split(';');
    const q = parameters.map((parameter): string[] => parameter.trim().split('=')).find(([ name ]): boolean => name === 'q');
    return { range: range.trim(), q: q ? Number(q[1]) : 1 };
  });
  const xhtml = ranges.find((entry): boolean => entry.range === 'application/xhtml+xml');
  const html = Math.max(quality(ranges, 'text/html'), xhtml?.q ?? 0);
  const named = DATA_TYPES.filter((type): boolean => ranges.some((entry): boolean => entry.range === type));
  return html > 0 && named.every((type): boolean => quality(ranges, type) <= html);
}
