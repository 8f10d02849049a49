import { DataFactory } from 'n3';
import { ActivityDocumentHandler } from '../../../../src/handlers/activitypub/ActivityDocumentHandler';
import type { Operation } from '../../../../src/handlers/http/Operation';
import type { ActivityRepository } from '../../../../src/plugins/activitypub/ActivityRepository';
import type { StoredResource } from '../../../../src/storage/ResourceGraphs';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';
import { DocumentsStandIn } from './support';

const { literal, namedNode, quad } = DataFactory;
const ORIGIN = 'https://pod.example';

/** Serves `/doc/<name>` as the IRI `https://pod.example/doc/<name>`. */
class DocHandler extends ActivityDocumentHandler {
  public constructor(activities: ActivityRepository) {
    super(activities);
  }

  protected target({ target }: Operation): string | undefined {
    return target.path.startsWith('/doc/') ? target.iri : undefined;
  }
}

describe('ActivityDocumentHandler', (): void => {
  const NOTE = `${ORIGIN}/doc/note`;
  const CREATE = `${ORIGIN}/doc/create`;
  const prefetched: StoredResource = { data: [ quad(namedNode(NOTE), namedNode('urn:x'), literal('x')) ], metadata: []};
  let standIn: DocumentsStandIn;
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    standIn = new DocumentsStandIn();
    standIn.documents.set(NOTE, { '@context': 'https://www.w3.org/ns/activitystreams', id: NOTE, type: 'Note',
      content: 'hello', to: 'https://www.w3.org/ns/activitystreams#Public', bto: 'https://r.example/u/a', bcc: [ 'https://r.example/u/b' ] });
    standIn.documents.set(CREATE, { id: CREATE, type: 'Create', actor: `${ORIGIN}/actors/alice`,
      object: { id: NOTE, type: 'Note', bcc: 'https://r.example/u/b' }, bcc: 'https://r.example/u/b' });
    standIn.documents.set(`${ORIGIN}/doc/gone`, { id: `${ORIGIN}/doc/gone`, type: 'Tombstone' });
    server = await serveHandler(new DocHandler(standIn.repository()), (request, operation): void => {
      if (request.headers['x-prefetched'] !== undefined) {
        operation.decide({ prefetched: { iri: NOTE, stored: prefetched }});
      }
    });
  });

  afterAll(async(): Promise<void> => {
    await server.close();
  });

  beforeEach((): void => {
    standIn.reads.length = 0;
  });

  it('answers the document as activity+json, without blind copies, varying on Accept', async(): Promise<void> => {
    const response = await fetch(`${server.base}/doc/note`, { headers: { accept: 'application/activity+json' }});
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/activity+json; charset=utf-8');
    const text = await response.text();
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(JSON.parse(text)).toEqual({ '@context': 'https://www.w3.org/ns/activitystreams', id: NOTE, type: 'Note',
      content: 'hello', to: 'https://www.w3.org/ns/activitystreams#Public' });
  });

  it('removes blind copies from an embedded object too', async(): Promise<void> => {
    const body = await (await fetch(`${server.base}/doc/create`)).json() as Record<string, unknown>;
    expect(body).toEqual({ id: CREATE, type: 'Create', actor: `${ORIGIN}/actors/alice`, object: { id: NOTE, type: 'Note' }});
  });

  it('answers JSON-LD with the ActivityStreams profile, and plain JSON, as asked', async(): Promise<void> => {
    const ldJson = await fetch(`${server.base}/doc/note`, { headers: { accept: 'application/ld+json' }});
    expect(ldJson.headers.get('content-type')).toBe('application/ld+json; profile="https://www.w3.org/ns/activitystreams"; charset=utf-8');
    const json = await fetch(`${server.base}/doc/note`, { headers: { accept: 'application/json' }});
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('answers HEAD with the headers only', async(): Promise<void> => {
    const response = await fetch(`${server.base}/doc/note`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await response.text()).toBe('');
  });

  it('reads with the resource the access step already read, when it read this one', async(): Promise<void> => {
    await (await fetch(`${server.base}/doc/note`, { headers: { 'x-prefetched': '1' }})).text();
    await (await fetch(`${server.base}/doc/create`, { headers: { 'x-prefetched': '1' }})).text();
    expect(standIn.reads).toEqual([{ iri: NOTE, prefetched }, { iri: CREATE, prefetched: undefined }]);
  });

  it('answers 404 not_found for nothing stored and 410 gone for a Tombstone', async(): Promise<void> => {
    const missing = await fetch(`${server.base}/doc/missing`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'not_found', message: `Nothing at ${ORIGIN}/doc/missing` });
    const gone = await fetch(`${server.base}/doc/gone`);
    expect(gone.status).toBe(410);
    expect(await gone.json()).toEqual({ error: 'gone', message: `${ORIGIN}/doc/gone was deleted.` });
  });

  it('leaves other methods, other paths, Turtle and HTML to other handlers', async(): Promise<void> => {
    const refused = [
      await fetch(`${server.base}/doc/note`, { method: 'POST', body: '{}' }),
      await fetch(`${server.base}/other/note`),
      await fetch(`${server.base}/doc/note`, { headers: { accept: 'text/turtle' }}),
      await fetch(`${server.base}/doc/note`, { headers: { accept: 'application/activity+json, text/turtle;q=0.5' }}),
      await fetch(`${server.base}/doc/note`, { headers: { accept: 'text/html' }}),
      await fetch(`${server.base}/doc/note`, { headers: { accept: 'image/png' }}),
    ];
    expect(refused.map(declined)).toEqual([ true, true, true, true, true, true ]);
    expect(standIn.reads).toEqual([]);
  });
});
