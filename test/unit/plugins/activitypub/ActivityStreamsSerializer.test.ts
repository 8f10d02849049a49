import { DataFactory } from 'n3';
import { ACTIVITYPUB_CONTEXT, ActivityStreamsSerializer } from '../../../../src/plugins/activitypub/ActivityStreamsSerializer';
import { actorDocument } from '../../../../src/plugins/activitypub/ActorDocument';
import { ActorUrls } from '../../../../src/plugins/activitypub/ActorUrls';
import { ACTIVITYSTREAMS_CONTEXT_URL, SECURITY_V1_CONTEXT_URL } from '../../../../src/plugins/ldp/Contexts';
import { DocumentLoader } from '../../../../src/plugins/ldp/DocumentLoader';
import { JsonLdParser } from '../../../../src/plugins/ldp/JsonLdParser';

const { blankNode, literal, namedNode, quad } = DataFactory;

const BASE = 'https://pod.example/';
const AS = 'https://www.w3.org/ns/activitystreams#';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

describe('ActivityStreamsSerializer', (): void => {
  const loader = new DocumentLoader(BASE);
  const serializer = new ActivityStreamsSerializer(loader);

  it('serves an actor as peers read it: plain keys for the security and Mastodon terms', async(): Promise<void> => {
    const urls = new ActorUrls(BASE);
    const iri = urls.actor('alice');
    const quads = await new JsonLdParser(BASE, loader).toQuads(actorDocument(urls, 'alice', 'PEM', '2026-01-01T00:00:00Z'), iri);
    const actor = await serializer.toJson(quads, iri);
    expect(actor['@context']).toEqual(ACTIVITYPUB_CONTEXT);
    expect(ACTIVITYPUB_CONTEXT.slice(0, 2)).toEqual([ ACTIVITYSTREAMS_CONTEXT_URL, SECURITY_V1_CONTEXT_URL ]);
    expect(actor).toMatchObject({ id: iri, type: 'Person', inbox: `${iri}/inbox`, manuallyApprovesFollowers: false,
      publicKey: { id: `${iri}#main-key`, owner: iri, publicKeyPem: 'PEM' }, endpoints: { sharedInbox: urls.sharedInbox() }});
  });

  it('falls back to jsonld.js for a shape the fast compactor leaves out, keeping the context', async(): Promise<void> => {
    const note = `${BASE}objects/n1`;
    const head = blankNode('l1');
    const json = await serializer.toJson([
      quad(namedNode(note), namedNode(`${RDF}type`), namedNode(`${AS}Note`)),
      quad(namedNode(note), namedNode('https://vocab.example/steps'), head),
      quad(head, namedNode(`${RDF}first`), literal('one')),
      quad(head, namedNode(`${RDF}rest`), namedNode(`${RDF}nil`)),
    ], note);
    expect(json['@context']).toEqual(ACTIVITYPUB_CONTEXT);
    expect(json).toMatchObject({ id: note, type: 'Note' });
    expect(JSON.stringify(json)).toContain('"@list":["one"]');
  });
});
