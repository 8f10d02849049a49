import { ObjectHandler } from '../../../../src/handlers/activitypub/ObjectHandler';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';
import { DocumentsStandIn } from './support';

describe('ObjectHandler', (): void => {
  let standIn: DocumentsStandIn;
  let server: HandlerServer;
  let base: string;

  beforeAll(async(): Promise<void> => {
    standIn = new DocumentsStandIn();
    // The server's own IRIs are those of its base URL, whatever address the request reached it at.
    server = await serveHandler(new ObjectHandler('https://pod.example/pod/', standIn.repository()));
    base = server.base;
    for (const iri of [ 'https://pod.example/pod/objects/n1', 'https://pod.example/pod/activities/a1' ]) {
      standIn.documents.set(iri, { id: iri, type: iri.includes('objects') ? 'Note' : 'Create' });
    }
  });

  afterAll(async(): Promise<void> => {
    await server.close();
  });

  beforeEach((): void => {
    standIn.reads.length = 0;
  });

  it('serves objects and activities under the base URL\'s path, by the IRI on the base URL\'s origin', async(): Promise<void> => {
    const note = await fetch(`${base}/pod/objects/n1?x=1`);
    expect(note.status).toBe(200);
    expect(await note.json()).toEqual({ id: 'https://pod.example/pod/objects/n1', type: 'Note' });
    const activity = await fetch(`${base}/pod/activities/a1`);
    expect(await activity.json()).toEqual({ id: 'https://pod.example/pod/activities/a1', type: 'Create' });
    expect(standIn.reads.map((read): string => read.iri)).toEqual([ 'https://pod.example/pod/objects/n1', 'https://pod.example/pod/activities/a1' ]);
  });

  it('takes no container, nested path or path outside the base URL', async(): Promise<void> => {
    for (const path of [ '/pod/objects/', '/pod/activities/', '/pod/objects/n1/replies', '/objects/n1', '/pod/actors/alice', '/pod/objectsx/n1' ]) {
      expect({ path, declined: declined(await fetch(`${base}${path}`)) }).toEqual({ path, declined: true });
    }
    expect(standIn.reads).toEqual([]);
  });

  it('answers 404 with a JSON error for an object not stored', async(): Promise<void> => {
    const response = await fetch(`${base}/pod/objects/unknown`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'not_found', message: 'Nothing at https://pod.example/pod/objects/unknown' });
  });
});
