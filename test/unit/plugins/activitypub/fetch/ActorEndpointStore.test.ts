import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ActorEndpointStore } from '../../../../../src/plugins/activitypub/fetch/ActorEndpointStore';
import { SparqlActorEndpointRecords } from '../../../../../src/storage/SparqlActorEndpointRecords';
import type { ActorEndpointRecords } from '../../../../../src/storage/ActorEndpointRecords';
import type { EmbeddedStoreHandle } from '../../../../../src/storage/embedded';
import { runEmbeddedStore } from '../../../../../src/storage/embedded';
import { SparqlClient } from '../../../../../src/storage/SparqlClient';
import { createDataset } from '../../../storage/embedded/support/storeHttp';

const HOST = 'https://remote.example';

describe('ActorEndpointStore (on the embedded store)', () => {
  let dataDir: string;
  let store: EmbeddedStoreHandle;
  let client: SparqlClient;

  beforeAll(async() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fedpod-endpoints-'));
    store = await runEmbeddedStore({ port: 0, dataDir });
    expect((await createDataset(store.url, 'ds')).status).toBeLessThan(300);
    client = new SparqlClient(`${store.url}/ds/query`, `${store.url}/ds/update`, 'admin', 'admin');
  });

  afterAll(async() => {
    await store.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps noted endpoints and finds them with one lookup, shared inbox included', async() => {
    const endpoints = new ActorEndpointStore(new SparqlActorEndpointRecords(client), 10);
    endpoints.note(`${HOST}/users/a`, `${HOST}/users/a/inbox`, `${HOST}/inbox`, Date.parse('2026-01-01T00:00:00Z'));
    endpoints.note(`${HOST}/users/b`, `${HOST}/users/b/inbox`);
    await endpoints.flush();
    // A second instance (a restarted process) sees what the first wrote.
    const found = await new ActorEndpointStore(new SparqlActorEndpointRecords(client)).lookup([ `${HOST}/users/a`, `${HOST}/users/b`, `${HOST}/users/unknown` ]);
    expect(found.size).toBe(2);
    expect(found.get(`${HOST}/users/a`)).toEqual({ inbox: `${HOST}/users/a/inbox`, sharedInbox: `${HOST}/inbox`,
      checkedAt: Date.parse('2026-01-01T00:00:00Z') });
    expect(found.get(`${HOST}/users/b`)).toMatchObject({ inbox: `${HOST}/users/b/inbox`, sharedInbox: undefined });
  });

  it('replaces what an actor had before', async() => {
    const endpoints = new ActorEndpointStore(new SparqlActorEndpointRecords(client), 10);
    endpoints.note(`${HOST}/users/c`, `${HOST}/users/c/inbox`, `${HOST}/inbox`);
    await endpoints.flush();
    endpoints.note(`${HOST}/users/c`, `${HOST}/users/c/new-inbox`);
    await endpoints.flush();
    const found = await endpoints.lookup([ `${HOST}/users/c` ]);
    expect(found.get(`${HOST}/users/c`)).toMatchObject({ inbox: `${HOST}/users/c/new-inbox`, sharedInbox: undefined });
  });

  it('answers noted endpoints before they are written', async() => {
    const endpoints = new ActorEndpointStore(new SparqlActorEndpointRecords(client), 60_000);
    endpoints.note(`${HOST}/users/d`, `${HOST}/users/d/inbox`);
    expect((await endpoints.lookup([ `${HOST}/users/d` ])).get(`${HOST}/users/d`)?.inbox).toBe(`${HOST}/users/d/inbox`);
    expect((await new ActorEndpointStore(new SparqlActorEndpointRecords(client)).lookup([ `${HOST}/users/d` ])).size).toBe(0);
    await endpoints.flush();
    expect((await new ActorEndpointStore(new SparqlActorEndpointRecords(client)).lookup([ `${HOST}/users/d` ])).size).toBe(1);
  });

  it('writes many actors in chunks', async() => {
    const endpoints = new ActorEndpointStore(new SparqlActorEndpointRecords(client), 10);
    const ids = Array.from({ length: 1_200 }, (_, index): string => `${HOST}/many/${index}`);
    for (const id of ids) {
      endpoints.note(id, `${id}/inbox`, `${HOST}/inbox`);
    }
    await endpoints.flush();
    const found = await new ActorEndpointStore(new SparqlActorEndpointRecords(client)).lookup(ids);
    expect(found.size).toBe(1_200);
    expect(found.get(`${HOST}/many/1199`)?.inbox).toBe(`${HOST}/many/1199/inbox`);
  });

  it('ignores IRIs that could break out of a query, and never queries them', async() => {
    const endpoints = new ActorEndpointStore(new SparqlActorEndpointRecords(client), 10);
    const evil = `${HOST}/x> } ; DROP ALL ; { <a`;
    endpoints.note(evil, `${HOST}/inbox`);
    endpoints.note(`${HOST}/users/e`, `${HOST}/in box`);
    await endpoints.flush();
    expect((await endpoints.lookup([ evil, `${HOST}/users/e` ])).size).toBe(0);
    // The store still holds the other actors.
    expect((await endpoints.lookup([ `${HOST}/users/a` ])).size).toBe(1);
  });

  it('drops a write the store refuses, without throwing', async() => {
    const down = new SparqlClient('http://127.0.0.1:9/ds/query', 'http://127.0.0.1:9/ds/update', '', '', 2_000);
    const endpoints = new ActorEndpointStore(new SparqlActorEndpointRecords(down), 10);
    endpoints.note(`${HOST}/users/f`, `${HOST}/users/f/inbox`);
    await expect(endpoints.flush()).resolves.toBeUndefined();
    // What this process noted is still answered from memory; anything else needs the store.
    expect((await endpoints.lookup([ `${HOST}/users/f` ])).get(`${HOST}/users/f`)?.inbox).toBe(`${HOST}/users/f/inbox`);
    await expect(endpoints.lookup([ `${HOST}/users/g` ])).rejects.toThrow();
  });

  it('answers endpoints it read from memory until they expire, then reads the store again', async() => {
    const writer = new ActorEndpointStore(new SparqlActorEndpointRecords(client), 10);
    writer.note(`${HOST}/users/h`, `${HOST}/users/h/inbox`);
    await writer.flush();
    const records = new SparqlActorEndpointRecords(client);
    const asked: string[][] = [];
    const counted: ActorEndpointRecords = {
      lookup: async(ids) => {
        asked.push([ ...ids ]);
        return records.lookup(ids);
      },
      replace: async(entries) => records.replace(entries),
    };
    const ttlMs = 300;
    const endpoints = new ActorEndpointStore(counted, 10, ttlMs);
    const wanted = [ `${HOST}/users/h`, `${HOST}/users/unknown-h` ];
    expect((await endpoints.lookup(wanted)).get(`${HOST}/users/h`)?.inbox).toBe(`${HOST}/users/h/inbox`);
    expect((await endpoints.lookup(wanted)).get(`${HOST}/users/h`)?.inbox).toBe(`${HOST}/users/h/inbox`);
    // The second lookup asked the store only for the actor it did not know.
    expect(asked).toEqual([ wanted, [ `${HOST}/users/unknown-h` ]]);
    // Another process changes the record; this one sees it once its copy has expired.
    writer.note(`${HOST}/users/h`, `${HOST}/users/h/moved-inbox`);
    await writer.flush();
    await new Promise((resolve): unknown => setTimeout(resolve, ttlMs + 50));
    expect((await endpoints.lookup([ `${HOST}/users/h` ])).get(`${HOST}/users/h`)?.inbox).toBe(`${HOST}/users/h/moved-inbox`);
    expect(asked).toHaveLength(3);
  });
});
