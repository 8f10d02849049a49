import { Readable } from 'node:stream';
import { RDFA_TYPES, rdfaQuads } from '../../../../src/plugins/ldp/HtmlRdfa';

const PAGE = 'https://pod.example/pages/about.html';

/** The quads as `subject predicate object` lines, sorted. */
const lines = (quads: { subject: { value: string }; predicate: { value: string }; object: { value: string } }[]): string[] =>
  quads.map((entry): string => `${entry.subject.value} ${entry.predicate.value} ${entry.object.value}`).sort();

describe('rdfaQuads', (): void => {
  it('reads the RDFa of an HTML page, its relative IRIs against the page', async(): Promise<void> => {
    const html = `<!DOCTYPE html><html><body vocab="http://schema.org/">
      <div resource="#me" typeof="Person"><span property="name">Alice</span><a property="url" href="../alice/">home</a></div>
    </body></html>`;
    expect(lines(await rdfaQuads(Readable.from([ html ]), PAGE, 'text/html'))).toEqual([
      `${PAGE}#me http://schema.org/name Alice`,
      `${PAGE}#me http://schema.org/url https://pod.example/alice/`,
      `${PAGE}#me http://www.w3.org/1999/02/22-rdf-syntax-ns#type http://schema.org/Person`,
      `${PAGE} http://www.w3.org/ns/rdfa#usesVocabulary http://schema.org/`,
    ].sort());
  });

  it('reads XHTML too, and nothing of a page without RDFa', async(): Promise<void> => {
    const xhtml = '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title></head>' +
      '<body><p about="" property="http://purl.org/dc/terms/title">Hi</p></body></html>';
    expect(lines(await rdfaQuads(Readable.from([ xhtml ]), PAGE, 'application/xhtml+xml')))
      .toContain(`${PAGE} http://purl.org/dc/terms/title Hi`);
    expect(await rdfaQuads(Readable.from([ '<p>plain</p>' ]), PAGE, 'text/html')).toEqual([]);
  });

  it('rejects when the page cannot be read', async(): Promise<void> => {
    const broken = new Readable({ read(): void {
      this.destroy(new Error('disk gone'));
    } });
    await expect(rdfaQuads(broken, PAGE, 'text/html')).rejects.toThrow('disk gone');
  });

  it('serves RDFa of HTML and XHTML only', (): void => {
    expect([ ...RDFA_TYPES ].sort()).toEqual([ 'application/xhtml+xml', 'text/html' ]);
  });
});
