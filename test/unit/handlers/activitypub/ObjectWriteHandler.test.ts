import { ObjectWriteHandler } from '../../../../src/handlers/activitypub/ObjectWriteHandler';
import type { CollectionStore } from '../../../../src/storage/CollectionStore';
import { serviceUnavailable } from '../../../../src/util/HttpErrors';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';
import { agentFromTestHeader, AS_USER, DocumentsStandIn, OutboxStandIn } from './support';

const BASE = 'https://pod.example/';
const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
const NOTE = `${BASE}objects/n1`;
const ALICE = `${BASE}actors/alice`;

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

describe('ObjectWriteHandler', (): void => {
  let documents: DocumentsStandIn;
  let outbox: OutboxStandIn;
  let removed: [string, string][];
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    documents = new DocumentsStandIn();
    outbox = new OutboxStandIn();
    removed = [];
    const collections = {
      remove: async(collection: string, iri: string): Promise<void> => {
        removed.push([ collection, iri ]);
      },
    } as unknown as CollectionStore;
    server = await serveHandler(new ObjectWriteHandler(BASE, outbox.service(), documents.repository(), collections, 1000),
      agentFromTestHeader);
  });

  afterAll(async(): Promise<void> => {
    await server.close();
  });

  beforeEach((): void => {
    documents.documents.clear();
    documents.documents.set(NOTE, { id: NOTE, type: 'Note', attributedTo: ALICE, content: 'first', to: PUBLIC, cc: `${ALICE}/followers`,
      bcc: 'https://r.example/u/b' });
    documents.documents.set(`${BASE}activities/create`, { id: `${BASE}activities/create`, type: 'Create', actor: ALICE, object: NOTE, to: PUBLIC });
    documents.documents.set(`${BASE}activities/follow`, { id: `${BASE}activities/follow`, type: 'Follow', actor: ALICE,
      object: 'https://r.example/u/b', to: 'https://r.example/u/b' });
    documents.documents.set(`${BASE}activities/bare-create`, { id: `${BASE}activities/bare-create`, type: 'Create', actor: ALICE });
    documents.documents.set(`${BASE}activities/update`, { id: `${BASE}activities/update`, type: 'Update', actor: ALICE, object: NOTE });
    documents.documents.set(`${BASE}objects/gone`, { id: `${BASE}objects/gone`, type: 'Tombstone' });
    outbox.posted.length = 0;
    outbox.failWith = undefined;
    removed.length = 0;
  });

  /** Sends as `user` (a local user; '' sends as nobody). */
  async function send(method: string, path: string, body?: unknown, user = 'alice'): Promise<Answer> {
    const response = await fetch(`${server.base}${path}`, { method,
      headers: { 'content-type': 'application/json', ...user === '' ? {} : { [AS_USER]: user }},
      ...body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }});
    return { status: response.status, headers: response.headers, body: await response.json() as Record<string, unknown> };
  }

  it('turns a PUT of an object into an Update with the stored addressing, answered with the activity', async(): Promise<void> => {
    const answer = await send('PUT', '/objects/n1', { type: 'Note', content: 'second', id: 'https://elsewhere.example/x' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-location')).toBe('https://pod.example/activities/1');
    expect(answer.headers.get('content-type')).toBe('application/activity+json; charset=utf-8');
    const update = { type: 'Update', object: { type: 'Note', content: 'second', id: NOTE }, to: PUBLIC, cc: `${ALICE}/followers`,
      bcc: 'https://r.example/u/b' };
    expect(outbox.posted).toEqual([{ username: 'alice', body: update }]);
    expect(answer.body).toEqual({ ...update, id: 'https://pod.example/activities/1' });
    expect(removed).toEqual([]);
  });

  it('turns a DELETE of an object into a Delete, leaving the outbox as it is', async(): Promise<void> => {
    const answer = await send('DELETE', '/objects/n1');
    expect(answer.status).toBe(200);
    expect(outbox.posted).toEqual([{ username: 'alice', body: { type: 'Delete', object: NOTE, to: PUBLIC, cc: `${ALICE}/followers`,
      bcc: 'https://r.example/u/b' }}]);
    expect(removed).toEqual([]);
  });

  it('withdraws a Create by deleting its object, and takes the activity out of the outbox', async(): Promise<void> => {
    expect((await send('DELETE', '/activities/create')).status).toBe(200);
    expect(outbox.posted).toEqual([{ username: 'alice', body: { type: 'Delete', object: NOTE, to: PUBLIC }}]);
    expect(removed).toEqual([ [ `${ALICE}/outbox`, `${BASE}activities/create` ] ]);
  });

  it('withdraws a Follow with an Undo', async(): Promise<void> => {
    expect((await send('DELETE', '/activities/follow')).status).toBe(200);
    expect(outbox.posted).toEqual([{ username: 'alice', body: { type: 'Undo', object: `${BASE}activities/follow`, to: 'https://r.example/u/b' }}]);
    expect(removed).toEqual([ [ `${ALICE}/outbox`, `${BASE}activities/follow` ] ]);
  });

  it('keeps an activity in the outbox when its withdrawal fails', async(): Promise<void> => {
    outbox.failWith = serviceUnavailable('The job queue is not reachable.', 'queue_unavailable');
    const answer = await send('DELETE', '/activities/follow');
    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe('queue_unavailable');
    expect(removed).toEqual([]);
  });

  it('refuses activities it cannot withdraw: 405 for an Update, 400 for a Create without object', async(): Promise<void> => {
    const update = await send('DELETE', '/activities/update');
    expect(update.status).toBe(405);
    expect(update.headers.get('allow')).toBe('GET, HEAD');
    expect(update.body).toEqual({ error: 'method_not_allowed', message: 'A Update cannot be withdrawn.' });
    const bare = await send('DELETE', '/activities/bare-create');
    expect(bare.status).toBe(400);
    expect(bare.body).toEqual({ error: 'invalid_activity', message: 'This Create has no object to delete.' });
    expect(outbox.posted).toEqual([]);
  });

  it('answers 405 to PATCH, and to PUT of an activity, each with its Allow', async(): Promise<void> => {
    const patch = await send('PATCH', '/objects/n1', '{}');
    expect(patch.status).toBe(405);
    expect(patch.headers.get('allow')).toBe('GET, HEAD, PUT, DELETE');
    expect(patch.body.message).toBe('Change an object by PUTting the whole object (JSON), or by posting an Update to your outbox.');
    const put = await send('PUT', '/activities/create', { type: 'Create' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, DELETE');
    expect(put.body.message).toBe('Activities are not replaced: change their object, or DELETE the activity to withdraw it.');
    expect(outbox.posted).toEqual([]);
  });

  it('answers 400 invalid_object to a PUT of anything but a typed object, and 400 invalid_json to broken JSON', async(): Promise<void> => {
    for (const body of [ { content: 'no type' }, [ { type: 'Note' } ], 'null' ]) {
      const answer = await send('PUT', '/objects/n1', body);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('invalid_object');
    }
    const broken = await send('PUT', '/objects/n1', '{"type"');
    expect(broken.status).toBe(400);
    expect(broken.body.error).toBe('invalid_json');
    expect(outbox.posted).toEqual([]);
  });

  it('answers 403 not_owner to an agent that is no local user', async(): Promise<void> => {
    const answer = await send('DELETE', '/objects/n1', undefined, '');
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('not_owner');
    expect(outbox.posted).toEqual([]);
  });

  it('answers 404 for nothing stored and 410 for a deleted object', async(): Promise<void> => {
    const missing = await send('DELETE', '/objects/missing');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'not_found', message: `Nothing at ${BASE}objects/missing` });
    const gone = await send('PUT', '/objects/gone', { type: 'Note' });
    expect(gone.status).toBe(410);
    expect(gone.body).toEqual({ error: 'gone', message: `${BASE}objects/gone was deleted.` });
    expect(outbox.posted).toEqual([]);
  });

  it('leaves reads and POSTs to other handlers', async(): Promise<void> => {
    for (const method of [ 'GET', 'HEAD', 'POST', 'OPTIONS' ]) {
      const response = await fetch(`${server.base}/objects/n1`, { method, headers: { [AS_USER]: 'alice' }});
      expect({ method, declined: declined(response) }).toEqual({ method, declined: true });
    }
  });
});
