import { DataFactory } from 'n3';
import { ActorHandler } from '../../../../src/handlers/activitypub/ActorHandler';
import { ActivityStreamsSerializer } from '../../../../src/plugins/activitypub/ActivityStreamsSerializer';
import { DocumentLoader } from '../../../../src/plugins/ldp/DocumentLoader';
import { RDF_TYPE } from '../../../../src/storage/StoreVocabulary';
import { MemoryGraphStore } from '../../plugins/activitypub/MemoryGraphStore';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';

const { literal, namedNode, quad } = DataFactory;
const BASE = 'https://pod.example/';
const AS = 'https://www.w3.org/ns/activitystreams#';
const ALICE = `${BASE}actors/alice`;

describe('ActorHandler', (): void => {
  let graphs: MemoryGraphStore;
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    graphs = new MemoryGraphStore();
    graphs.put(ALICE, [
      quad(namedNode(ALICE), namedNode(RDF_TYPE), namedNode(`${AS}Person`)),
      quad(namedNode(ALICE), namedNode(`${AS}preferredUsername`), literal('alice')),
      quad(namedNode(ALICE), namedNode('http://www.w3.org/ns/ldp#inbox'), namedNode(`${ALICE}/inbox`)),
    ]);
    server = await serveHandler(new ActorHandler(BASE, graphs.store(), new ActivityStreamsSerializer(new DocumentLoader(BASE))));
  });

  afterAll(async(): Promise<void> => {
    await server.close();
  });

  it('serves the stored actor as ActivityStreams JSON, cacheable for a minute', async(): Promise<void> => {
    const response = await fetch(`${server.base}/actors/alice?x=1`, { headers: { accept: 'application/activity+json' }});
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/activity+json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('max-age=60');
    const text = await response.text();
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(JSON.parse(text)).toMatchObject({ id: ALICE, type: 'Person', preferredUsername: 'alice', inbox: `${ALICE}/inbox` });
  });

  it('answers JSON-LD with the ActivityStreams profile when asked, and HEAD with headers only', async(): Promise<void> => {
    const ldJson = await fetch(`${server.base}/actors/alice`, { headers: { accept: 'application/ld+json' }});
    expect(ldJson.headers.get('content-type')).toBe('application/ld+json; profile="https://www.w3.org/ns/activitystreams"; charset=utf-8');
    const head = await fetch(`${server.base}/actors/alice`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await head.text()).toBe('');
  });

  it('answers 404 not_found for an actor that is not stored', async(): Promise<void> => {
    const response = await fetch(`${server.base}/actors/bob`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'not_found', message: `No actor at ${BASE}actors/bob` });
  });

  it('leaves Turtle, HTML, writes and other paths to other handlers', async(): Promise<void> => {
    const refused = [
      await fetch(`${server.base}/actors/alice`, { headers: { accept: 'text/turtle' }}),
      await fetch(`${server.base}/actors/alice`, { headers: { accept: 'text/html' }}),
      await fetch(`${server.base}/actors/alice`, { method: 'PUT', body: '{}' }),
      await fetch(`${server.base}/actors/alice/outbox`),
      await fetch(`${server.base}/actors/`),
      await fetch(`${server.base}/actors/Alice`),
    ];
    expect(refused.map(declined)).toEqual([ true, true, true, true, true, true ]);
  });
});
