import { Parser } from 'n3';
import { canReadGraph, convertGraph, GraphResultsFormatError, N_QUADS, N_TRIPLES, TURTLE } from '../../../../src/handlers/sparql/GraphResults';
import { rejection } from '../../../support/rejection';

const TURTLE_BODY = '@prefix ex: <https://ex.example/>. ex:a ex:p ex:b, "x".';

describe('GraphResults', (): void => {
  it('knows which store answers it can read', (): void => {
    for (const type of [ 'text/turtle', 'application/x-turtle', 'application/n-triples', 'text/plain', 'application/n-quads', 'application/trig' ]) {
      expect({ type, readable: canReadGraph(type) }).toEqual({ type, readable: true });
    }
    expect(canReadGraph('application/rdf+xml')).toBe(false);
    expect(canReadGraph('')).toBe(false);
  });

  it('re-serialises Turtle as N-Triples, the same triples', async(): Promise<void> => {
    const text = await convertGraph(TURTLE_BODY, 'text/turtle', N_TRIPLES);
    expect(text.trim().split('\n')).toEqual([
      '<https://ex.example/a> <https://ex.example/p> <https://ex.example/b> .',
      '<https://ex.example/a> <https://ex.example/p> "x" .',
    ]);
  });

  it('writes the quads of a TriG answer as triples of the default graph', async(): Promise<void> => {
    const text = await convertGraph('<https://ex.example/g> { <https://ex.example/a> <https://ex.example/p> <https://ex.example/b> . }',
      'application/trig', N_QUADS);
    expect(new Parser({ format: 'application/n-quads' }).parse(text).map((quad): string => quad.graph.termType)).toEqual([ 'DefaultGraph' ]);
  });

  it('writes Turtle when asked, and N-Triples for a type it does not write', async(): Promise<void> => {
    expect(new Parser().parse(await convertGraph(TURTLE_BODY, 'text/turtle', TURTLE))).toHaveLength(2);
    expect(await convertGraph(TURTLE_BODY, 'text/turtle', 'application/ld+json')).toBe(await convertGraph(TURTLE_BODY, 'text/turtle', N_TRIPLES));
  });

  it('refuses an answer it cannot read, saying why', async(): Promise<void> => {
    const unknown = await rejection(convertGraph('<x/>', 'application/rdf+xml', N_TRIPLES));
    expect(unknown).toBeInstanceOf(GraphResultsFormatError);
    expect((unknown as Error).message).toBe('The store answered a graph query with application/rdf+xml.');
    expect((await rejection(convertGraph('', '', N_TRIPLES)) as Error).message).toBe('The store answered a graph query with no media type.');
    const broken = await rejection(convertGraph('<a> <b> .', 'text/turtle', N_TRIPLES));
    expect(broken).toBeInstanceOf(GraphResultsFormatError);
    expect((broken as Error).message).toMatch(/^The store's text\/turtle answer could not be read: /u);
  });
});
