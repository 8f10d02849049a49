import type { Quad } from '@rdfjs/types';
import { DataFactory, Parser } from 'n3';
import { quadsToText } from '../../util/RdfText';
import { messageOf } from '../../util/Errors';

/**
 * CONSTRUCT / DESCRIBE answers: passed through when the store answered the media type the client
 * negotiated, re-serialised otherwise (Virtuoso may answer Turtle when asked for N-Triples,
 * some stores label N-Triples `text/plain`).
 */

export const TURTLE = 'text/turtle';
export const N_TRIPLES = 'application/n-triples';
export const N_QUADS = 'application/n-quads';

/** Media types the store may answer a graph query with, and the n3 format that reads them. */
const READABLE: Record<string, string> = {
  'text/turtle': 'text/turtle',
  'application/x-turtle': 'text/turtle',
  'application/n-triples': 'text/turtle',
  'text/plain': 'text/turtle',
  'application/n-quads': 'application/n-quads',
  'application/trig': 'application/trig',
};

const WRITER_FORMAT: Record<string, string> = {
  [TURTLE]: 'Turtle',
  [N_TRIPLES]: 'N-Triples',
  [N_QUADS]: 'N-Quads',
};

export class GraphResultsFormatError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'GraphResultsFormatError';
  }
}

/** True when `mediaType` (as the store labelled its answer) can be converted by `convertGraph`. */
export function canReadGraph(mediaType: string): boolean {
  return mediaType in READABLE;
}

/** Re-serialises an RDF graph from `from` (a store's media type) to `to` (Turtle, N-Triples, N-Quads). */
export async function convertGraph(body: string, from: string, to: string): Promise<string> {
  const format = READABLE[from];
  if (!format) {
    throw new GraphResultsFormatError(`The store answered a graph query with ${from || 'no media type'}.`);
  }
  let quads;
  try {
    quads = new Parser({ format }).parse(body);
  } catch (error: unknown) {
    throw new GraphResultsFormatError(`The store's ${from} answer could not be read: ${messageOf(error)}`);
  }
  // Graph results are triples: the default graph whatever the store wrote.
  return quadsToText(quads.map(({ subject, predicate, object }): Quad => DataFactory.quad(subject, predicate, object)),
    { format: WRITER_FORMAT[to] ?? 'N-Triples' });
}
