import { RemoteObjectHandler } from '../../../../src/handlers/activitypub/RemoteObjectHandler';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';
import { DocumentsStandIn } from './support';

describe('RemoteObjectHandler', (): void => {
  const NOTE = 'https://remote.example/notes/1?x=1';
  let standIn: DocumentsStandIn;
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    standIn = new DocumentsStandIn();
    standIn.documents.set(NOTE, { id: NOTE, type: 'Note', content: 'from afar' });
    server = await serveHandler(new RemoteObjectHandler('https://pod.example/', standIn.repository()));
  });

  afterAll(async(): Promise<void> => {
    await server.close();
  });

  beforeEach((): void => {
    standIn.reads.length = 0;
  });

  it('serves the copy named by ?id=, query and all', async(): Promise<void> => {
    const response = await fetch(`${server.base}/remote?id=${encodeURIComponent(NOTE)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/activity+json; charset=utf-8');
    expect(await response.json()).toEqual({ id: NOTE, type: 'Note', content: 'from afar' });
    expect(standIn.reads.map((read): string => read.iri)).toEqual([ NOTE ]);
  });

  it('answers 404 for a copy it does not have, and for no id at all', async(): Promise<void> => {
    const unknown = await fetch(`${server.base}/remote?id=${encodeURIComponent('https://remote.example/notes/2')}`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json() as { error: string }).error).toBe('not_found');
    const bare = await fetch(`${server.base}/remote`);
    expect(bare.status).toBe(404);
    expect((await bare.json() as { error: string }).error).toBe('not_found');
    expect(standIn.reads.map((read): string => read.iri)).toEqual([ 'https://remote.example/notes/2', '' ]);
  });

  it('takes only its own path', async(): Promise<void> => {
    for (const path of [ '/remote/', '/remotes?id=x', '/x/remote?id=x' ]) {
      expect({ path, declined: declined(await fetch(`${server.base}${path}`)) }).toEqual({ path, declined: true });
    }
    expect(standIn.reads).toEqual([]);
  });
});
