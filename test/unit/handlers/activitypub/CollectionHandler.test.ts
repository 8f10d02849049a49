import { CollectionHandler } from '../../../../src/handlers/activitypub/CollectionHandler';
import { ACTIVITYPUB_CONTEXT } from '../../../../src/plugins/activitypub/ActivityStreamsSerializer';
import { AudienceRules } from '../../../../src/plugins/activitypub/AudienceRules';
import type { EmbeddedGraphs } from '../../support/embeddedGraphs';
import { startEmbeddedGraphs } from '../../support/embeddedGraphs';
import { InMemoryAccountStoreFake } from '../support/InMemoryAccountStore';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';
import { agentFromTestHeader, AS_USER, DocumentsStandIn } from './support';

const BASE = 'https://pod.example/';
const AS = 'https://www.w3.org/ns/activitystreams';
const PUBLIC = `${AS}#Public`;
const ALICE = `${BASE}actors/alice`;
const OUTBOX = `${ALICE}/outbox`;
const BOB = `${BASE}actors/bob`;
/** Alice's outbox, oldest first: a public activity, a followers-only one, one to Bob only (with a blind copy). */
const PUBLIC_POST = `${BASE}activities/1`;
const FOLLOWERS_POST = `${BASE}activities/2`;
const DIRECT_POST = `${BASE}activities/3`;

type Body = Record<string, unknown>;

describe('CollectionHandler (on the embedded store)', (): void => {
  let graphs: EmbeddedGraphs;
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs(BASE);
    const documents = new DocumentsStandIn();
    const addressing: [string, string, string?][] = [ [ PUBLIC_POST, PUBLIC ], [ FOLLOWERS_POST, `${ALICE}/followers` ],
      [ DIRECT_POST, BOB, 'https://remote.example/users/dan' ] ];
    for (const [ index, [ iri, to, bcc ]] of addressing.entries()) {
      await graphs.put(iri, [ [ `${AS}#actor`, ALICE, 'iri' ], [ `${AS}#to`, to, 'iri' ], ...bcc ? [ [ `${AS}#bcc`, bcc, 'iri' ] as [string, string, 'iri'] ] : [] ]);
      await graphs.collections.add(OUTBOX, iri, new Date(Date.UTC(2026, 0, index + 1)));
      documents.documents.set(iri, { '@context': AS, id: iri, type: 'Create', actor: ALICE, to, ...bcc ? { bcc } : {}});
    }
    await graphs.collections.add(`${ALICE}/followers`, BOB);
    await graphs.collections.add(`${ALICE}/followers`, 'https://remote.example/users/dan');
    await graphs.collections.add(`${ALICE}/liked`, 'https://remote.example/notes/liked', new Date(Date.UTC(2026, 0, 1)));
    const handler = new CollectionHandler(BASE, new InMemoryAccountStoreFake(BASE, [ 'alice', 'bob', 'carol' ]), graphs.collections,
      new AudienceRules(graphs.resources, graphs.collections, BASE), documents.repository(), 2);
    server = await serveHandler(handler, agentFromTestHeader);
  });

  afterAll(async(): Promise<void> => {
    await server.close();
    await graphs.stop();
  });

  async function get(path: string, user?: string, accept = 'application/activity+json'): Promise<{ status: number; headers: Headers; body: Body }> {
    const response = await fetch(`${server.base}${path}`, { headers: { accept, ...user === undefined ? {} : { [AS_USER]: user }}});
    return { status: response.status, headers: response.headers, body: await response.json() as Body };
  }

  /** The IRIs of a page's items, embedded or not. */
  function itemIds(page: Body): string[] {
    return (page.orderedItems as (string | Body)[]).map((item): string => typeof item === 'string' ? item : item.id as string);
  }

  it('describes a collection: its size for the reader, and links to its first and last pages', async(): Promise<void> => {
    const answer = await get('/actors/alice/outbox', 'alice');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/activity+json; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    expect(answer.body).toEqual({ '@context': AS, id: OUTBOX, type: 'OrderedCollection', totalItems: 3,
      first: `${OUTBOX}?page=true`, last: `${OUTBOX}?page=true&after=` });
  });

  it('counts in a box only what the reader may read', async(): Promise<void> => {
    expect((await get('/actors/alice/outbox')).body.totalItems).toBe(1);
    expect((await get('/actors/alice/outbox', 'carol')).body.totalItems).toBe(1);
    expect((await get('/actors/alice/outbox', 'bob')).body.totalItems).toBe(3);
    // Collections other than the boxes are not filtered.
    expect((await get('/actors/alice/followers')).body.totalItems).toBe(2);
  });

  it('pages the owner\'s box newest first, activities embedded with their blind copies, linking older pages', async(): Promise<void> => {
    const first = await get('/actors/alice/outbox?page=true', 'alice');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ '@context': ACTIVITYPUB_CONTEXT, id: `${OUTBOX}?page=true`, type: 'OrderedCollectionPage', partOf: OUTBOX });
    expect(first.body.orderedItems).toEqual([
      { id: DIRECT_POST, type: 'Create', actor: ALICE, to: BOB, bcc: 'https://remote.example/users/dan' },
      { id: FOLLOWERS_POST, type: 'Create', actor: ALICE, to: `${ALICE}/followers` },
    ]);
    expect(first.body.prev).toBeUndefined();
    const next = first.body.next as string;
    expect(next).toMatch(/^https:\/\/pod\.example\/actors\/alice\/outbox\?page=true&before=\S+$/u);
    const second = await get(next.slice('https://pod.example'.length), 'alice');
    expect(second.body.id).toBe(next);
    expect(itemIds(second.body)).toEqual([ PUBLIC_POST ]);
    expect(second.body.next).toBeUndefined();
    const prev = second.body.prev as string;
    expect(prev).toMatch(/^https:\/\/pod\.example\/actors\/alice\/outbox\?page=true&after=\S+$/u);
    // Back from the older page: the two newer items, with a link further back but none forward.
    const back = await get(prev.slice('https://pod.example'.length), 'alice');
    expect(itemIds(back.body)).toEqual([ DIRECT_POST, FOLLOWERS_POST ]);
    expect(back.body.prev).toBeUndefined();
    expect(back.body.next).toBeDefined();
  });

  it('starts the last page at the oldest items', async(): Promise<void> => {
    const last = await get('/actors/alice/outbox?page=true&after=', 'alice');
    expect(last.body.id).toBe(`${OUTBOX}?page=true&after=`);
    expect(itemIds(last.body)).toEqual([ FOLLOWERS_POST, PUBLIC_POST ]);
    expect(last.body.next).toBeUndefined();
    expect(last.body.prev).toBeDefined();
  });

  it('shows another reader only the items addressed to them, without blind copies', async(): Promise<void> => {
    expect(itemIds((await get('/actors/alice/outbox?page=true')).body)).toEqual([ PUBLIC_POST ]);
    const bobs = await get('/actors/alice/outbox?page=true', 'bob');
    expect(itemIds(bobs.body)).toEqual([ DIRECT_POST, FOLLOWERS_POST ]);
    expect((bobs.body.orderedItems as Body[])[0]).toEqual({ id: DIRECT_POST, type: 'Create', actor: ALICE, to: BOB });
  });

  it('lists the items of other collections as IRIs', async(): Promise<void> => {
    const liked = await get('/actors/alice/liked?page=true');
    expect(liked.body).toEqual({ '@context': AS, id: `${ALICE}/liked?page=true`, type: 'OrderedCollectionPage', partOf: `${ALICE}/liked`,
      orderedItems: [ 'https://remote.example/notes/liked' ]});
  });

  it('answers JSON-LD with the media type asked for', async(): Promise<void> => {
    const answer = await get('/actors/alice/liked', undefined, 'application/ld+json');
    expect(answer.headers.get('content-type')).toBe('application/ld+json; charset=utf-8');
  });

  it('answers 400 invalid_cursor to a cursor it did not make, and 404 for an actor that does not exist', async(): Promise<void> => {
    const cursor = await get('/actors/alice/outbox?page=true&before=bm90LWEtY3Vyc29y', 'alice');
    expect(cursor.status).toBe(400);
    expect(cursor.body).toEqual({ error: 'invalid_cursor', message: 'That page cursor is not valid.' });
    const unknown = await get('/actors/zed/outbox');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'not_found', message: 'No actor zed' });
  });

  it('leaves writes, other paths and non-JSON representations to other handlers', async(): Promise<void> => {
    expect(declined(await fetch(`${server.base}/actors/alice/outbox`, { method: 'POST', body: '{}' }))).toBe(true);
    expect(declined(await fetch(`${server.base}/actors/alice/outbox`, { headers: { accept: 'text/turtle' }}))).toBe(true);
    expect(declined(await fetch(`${server.base}/actors/alice/albums`))).toBe(true);
    expect(declined(await fetch(`${server.base}/actors/alice`))).toBe(true);
  });
});
