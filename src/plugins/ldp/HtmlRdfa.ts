import type { Readable } from 'node:stream';
import type { Quad } from '@rdfjs/types';
import { RdfaParser } from 'rdfa-streaming-parser';

/** Media types of stored files whose RDFa is served as RDF when a client asks for RDF. */
export const RDFA_TYPES = new Set([ 'text/html', 'application/xhtml+xml' ]);

/**
 * The triples an HTML or XHTML page states in RDFa (rdfa-streaming-parser, the parser CSS uses for
 * the same conversion), its relative IRIs resolved against the page's own IRI.
 */
export async function rdfaQuads(page: Readable, iri: string, mediaType: string): Promise<Quad[]> {
  const quads: Quad[] = [];
  const parser = new RdfaParser({ baseIRI: iri, contentType: mediaType });
  await new Promise<void>((resolve, reject): void => {
    page.on('error', reject);
    parser.on('error', reject);
    parser.on('data', (quad: Quad): number => quads.push(quad));
    parser.on('end', resolve);
    page.pipe(parser);
  });
  return quads;
}
