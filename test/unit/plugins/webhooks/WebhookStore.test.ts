import { WebhookStore } from '../../../../src/plugins/webhooks/WebhookStore';
import type { EmbeddedGraphs } from '../../support/embeddedGraphs';
import { startEmbeddedGraphs } from '../../support/embeddedGraphs';

const BASE = 'http://localhost:3000/';
const CONTAINER = `${BASE}webhooks/`;
const ALICE = `${BASE}actors/alice`;
const BOB = `${BASE}actors/bob`;

describe('WebhookStore (on the embedded store)', (): void => {
  let graphs: EmbeddedGraphs;
  let store: WebhookStore;

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs(BASE);
    store = new WebhookStore(graphs.resources, CONTAINER);
  });

  afterAll(async(): Promise<void> => {
    await graphs.stop();
  });

  it('keeps a record under its key and finds it again, and nothing under another key', async(): Promise<void> => {
    const created = await store.create({ key: 'k1', user: ALICE, username: 'alice', action: 'store-in-container',
      created: '2026-01-01T00:00:00Z' });
    expect(created.iri).toBe(`${CONTAINER}k1`);
    expect(await store.find('k1')).toEqual(created);
    expect(await store.find('nope')).toBeUndefined();
  });

  it('lists one user\'s records oldest first, or everyone\'s', async(): Promise<void> => {
    await store.create({ key: 'k3', user: ALICE, username: 'alice', action: 'post-to-outbox', created: '2026-03-01T00:00:00Z' });
    await store.create({ key: 'k2', user: BOB, username: 'bob', action: 'store-in-container', created: '2026-02-01T00:00:00Z' });
    expect((await store.list(ALICE)).map((record): string => record.key)).toEqual([ 'k1', 'k3' ]);
    expect((await store.list(BOB)).map((record): string => record.key)).toEqual([ 'k2' ]);
    expect((await store.list()).map((record): string => record.key)).toEqual([ 'k1', 'k2', 'k3' ]);
    expect(await store.list(`${BASE}actors/nobody`)).toEqual([]);
  });

  it('forgets a deleted record, in find and in lists', async(): Promise<void> => {
    await store.delete('k3');
    expect(await store.find('k3')).toBeUndefined();
    expect((await store.list(ALICE)).map((record): string => record.key)).toEqual([ 'k1' ]);
  });

  it('ignores a member of the container that is not a whole record', async(): Promise<void> => {
    await graphs.put(`${CONTAINER}partial`, [ [ 'urn:fedpod:ns:user', ALICE, 'iri' ] ], CONTAINER);
    expect(await store.find('partial')).toBeUndefined();
    expect((await store.list(ALICE)).map((record): string => record.key)).toEqual([ 'k1' ]);
  });
});
