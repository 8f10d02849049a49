import { DataFactory, Parser } from 'n3';
import { quadsToText } from '../../../src/util/RdfText';

const { literal, namedNode, quad } = DataFactory;

describe('RdfText', (): void => {
  describe('quadsToText', (): void => {
    const quads = [
      quad(namedNode('https://pod.example/a'), namedNode('http://xmlns.com/foaf/0.1/name'), literal('A "quoted" name')),
      quad(namedNode('https://pod.example/a'), namedNode('http://xmlns.com/foaf/0.1/knows'), namedNode('https://pod.example/b')),
    ];

    it('writes Turtle with the prefixes given, which parses back to the same quads', async(): Promise<void> => {
      const text = await quadsToText(quads, { format: 'text/turtle', prefixes: { foaf: 'http://xmlns.com/foaf/0.1/' }});
      expect(text).toContain('@prefix foaf: <http://xmlns.com/foaf/0.1/>.');
      expect(text).toContain('foaf:knows');
      expect(new Parser().parse(text)).toEqual(quads);
    });

    it('writes N-Triples, one line per quad', async(): Promise<void> => {
      const text = await quadsToText(quads, { format: 'N-Triples' });
      expect(text.trim().split('\n')).toEqual([
        '<https://pod.example/a> <http://xmlns.com/foaf/0.1/name> "A \\"quoted\\" name" .',
        '<https://pod.example/a> <http://xmlns.com/foaf/0.1/knows> <https://pod.example/b> .',
      ]);
    });

    it('writes nothing for no quads', async(): Promise<void> => {
      expect(await quadsToText([], { format: 'N-Triples' })).toBe('');
    });
  });
});
