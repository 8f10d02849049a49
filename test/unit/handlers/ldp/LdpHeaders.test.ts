import { DataFactory } from 'n3';
import { CONTAINER_TYPES, eTagFor, ldpHeaders, modifiedOf } from '../../../../src/handlers/ldp/LdpHeaders';
import { DC_MODIFIED, LDP_NON_RDF_SOURCE, LDP_RESOURCE, XSD_DATETIME } from '../../../../src/storage/StoreVocabulary';

const { literal, namedNode, quad } = DataFactory;
const IRI = 'https://pod.example/alice/notes/a';

describe('LdpHeaders', (): void => {
  describe('modifiedOf', (): void => {
    it('reads the resource\'s own modification date', (): void => {
      const metadata = [
        quad(namedNode('https://pod.example/other'), namedNode(DC_MODIFIED), literal('2020-01-01T00:00:00Z', namedNode(XSD_DATETIME))),
        quad(namedNode(IRI), namedNode(DC_MODIFIED), literal('2026-05-06T07:08:09.010Z', namedNode(XSD_DATETIME))),
      ];
      expect(modifiedOf(metadata, IRI)).toEqual(new Date('2026-05-06T07:08:09.010Z'));
      expect(modifiedOf(metadata.slice(0, 1), IRI)).toBeUndefined();
    });
  });

  describe('eTagFor', (): void => {
    it('makes CSS\'s ETag from the date and content type, and none without a date', (): void => {
      expect(eTagFor(new Date(1_700_000_000_000), 'text/turtle')).toBe('"1700000000000-text/turtle"');
      expect(eTagFor(undefined, 'text/turtle')).toBeUndefined();
    });
  });

  describe('ldpHeaders', (): void => {
    it('gives a container its types, links, methods and what it accepts', (): void => {
      const headers = ldpHeaders('https://pod.example/', 'https://pod.example/alice/', 'container');
      expect(headers).toEqual({
        link: [
          ...CONTAINER_TYPES.map((type): string => `<${type}>; rel="type"`),
          '<https://pod.example/alice/.meta>; rel="describedby"',
          '<https://pod.example/alice/.acl>; rel="acl"',
          '<https://pod.example/.well-known/solid>; rel="http://www.w3.org/ns/solid/terms#storageDescription"',
        ],
        allow: 'OPTIONS, HEAD, GET, PATCH, PUT, POST, DELETE',
        'accept-patch': 'text/n3, application/sparql-update',
        'accept-put': '*/*',
        'accept-post': 'application/ld+json, application/json, text/turtle, application/n-triples',
        'ms-author-via': 'SPARQL',
      });
    });

    it('gives documents and files their types, no POST, and the access decision\'s headers', (): void => {
      const rdf = ldpHeaders('https://pod.example/alice/', IRI, 'rdf', { 'wac-allow': 'user="read",public=""',
        link: '<https://pod.example/alice/.acl>; rel="acl"' });
      expect((rdf.link as string[]).slice(0, 1)).toEqual([ `<${LDP_RESOURCE}>; rel="type"` ]);
      expect(rdf.link).toContain('<https://pod.example/alice/.acl>; rel="acl"');
      expect(rdf.link).toContain('<https://pod.example/alice/.well-known/solid>; rel="http://www.w3.org/ns/solid/terms#storageDescription"');
      expect(rdf.allow).toBe('OPTIONS, HEAD, GET, PATCH, PUT, DELETE');
      expect(rdf['accept-post']).toBeUndefined();
      expect(rdf['wac-allow']).toBe('user="read",public=""');
      const file = ldpHeaders('https://pod.example/', IRI, 'file');
      expect((file.link as string[]).slice(0, 2)).toEqual([ `<${LDP_NON_RDF_SOURCE}>; rel="type"`, `<${LDP_RESOURCE}>; rel="type"` ]);
      expect(file['wac-allow']).toBeUndefined();
    });
  });
});
