import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { InboxResolver } from '../../../../../src/plugins/activitypub/delivery/InboxResolver';
import { ActorEndpointStore } from '../../../../../src/plugins/activitypub/fetch/ActorEndpointStore';
import { SparqlActorEndpointRecords } from '../../../../../src/storage/SparqlActorEndpointRecords';
import { RemoteActorCache } from '../../../../../src/plugins/activitypub/fetch/RemoteActorCache';
import { RemoteFetcher } from '../../../../../src/plugins/activitypub/fetch/RemoteFetcher';
import type { EmbeddedStoreHandle } from '../../../../../src/storage/embedded';
import { runEmbeddedStore } from '../../../../../src/storage/embedded';
import { SparqlClient } from '../../../../../src/storage/SparqlClient';
import { createDataset } from '../../../storage/embedded/support/storeHttp';
import { LocalServer } from '../fetch/localServer';

describe('InboxResolver', () => {
  let dataDir: string;
  let store: EmbeddedStoreHandle;
  let client: SparqlClient;
  let server: LocalServer;
  let fetcher: RemoteFetcher;
  let dataset = 0;

  const actorId = (name: string): string => `${server.origin}/users/${name}`;

  function serveActor(name: string, shared = true): void {
    const id = actorId(name);
    server.json(`/users/${name}`, { id, type: 'Person', inbox: `${id}/inbox`,
      ...shared ? { endpoints: { sharedInbox: `${server.origin}/inbox` } } : {} });
  }

  function actorGets(): number {
    return server.seen.filter((seen): boolean => seen.url.startsWith('/users/')).length;
  }

  beforeAll(async() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fedpod-resolver-'));
    store = await runEmbeddedStore({ port: 0, dataDir });
  });

  afterAll(async() => {
    await store.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  beforeEach(async() => {
    dataset += 1;
    expect((await createDataset(store.url, `ds${dataset}`)).status).toBeLessThan(300);
    client = new SparqlClient(`${store.url}/ds${dataset}/query`, `${store.url}/ds${dataset}/update`, 'admin', 'admin');
    server = await new LocalServer().start();
    fetcher = new RemoteFetcher(true, 2_000);
  });

  afterEach(async() => {
    fetcher.close();
    await server.stop();
  });

  /** A resolver as a freshly started process has it: empty memory, the same store. */
  function freshResolver(maxAgeMs?: number): InboxResolver {
    const endpoints = new ActorEndpointStore(new SparqlActorEndpointRecords(client), 5);
    return new InboxResolver(new RemoteActorCache(fetcher, 3_600_000, 10_000, 30_000, 10_000, endpoints), endpoints, maxAgeMs);
  }

  it('fetches unknown actors once, prefers shared inboxes, and keeps them for the next process', async() => {
    for (const name of [ 'a', 'b', 'c' ]) {
      serveActor(name);
    }
    serveActor('solo', false);
    const first = freshResolver();
    const recipients = [ 'a', 'b', 'c', 'solo', 'a' ].map(actorId);
    const resolved = await first.resolve(recipients);
    expect([ ...resolved.inboxes ].sort()).toEqual([ `${server.origin}/inbox`, `${actorId('solo')}/inbox` ].sort());
    expect(resolved.unresolved).toEqual([]);
    expect(actorGets()).toBe(4);
    // The same process answers from memory.
    await first.resolve(recipients);
    expect(actorGets()).toBe(4);
    await first.flush();
    // A restarted process answers from the store, fetching nothing.
    const second = await freshResolver().resolve(recipients);
    expect(second.inboxes).toEqual(resolved.inboxes);
    expect(actorGets()).toBe(4);
  });

  it('knows an actor whose key was fetched to verify a signature (a Follow)', async() => {
    const id = actorId('follower');
    server.json('/users/follower', { id, type: 'Person', inbox: `${id}/inbox`,
      publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: 'unused here' } });
    const endpoints = new ActorEndpointStore(new SparqlActorEndpointRecords(client), 5);
    const cache = new RemoteActorCache(fetcher, 3_600_000, 10_000, 30_000, 10_000, endpoints);
    await cache.getKey(`${id}#main-key`).catch((): undefined => undefined);
    await endpoints.flush();
    expect((await freshResolver().resolve([ id ])).inboxes).toEqual(new Set([ `${id}/inbox` ]));
    expect(actorGets()).toBe(1);
  });

  it('checks stored endpoints older than maxAgeMs again, and uses them when the actor cannot be fetched', async() => {
    serveActor('old', false);
    const first = freshResolver();
    await first.resolve([ actorId('old') ]);
    await first.flush();
    expect(actorGets()).toBe(1);
    // Too old: fetched again (and the document now says something else).
    server.json('/users/old', { id: actorId('old'), type: 'Person', inbox: `${actorId('old')}/moved` });
    expect((await freshResolver(0).resolve([ actorId('old') ])).inboxes).toEqual(new Set([ `${actorId('old')}/moved` ]));
    expect(actorGets()).toBe(2);
    // Too old and the server is failing: the stored inbox is still the best address.
    server.json('/users/old', { error: 'down' }, 503);
    const stale = await freshResolver(0).resolve([ actorId('old') ]);
    expect(stale.unresolved).toEqual([]);
    expect(stale.inboxes.size).toBe(1);
  });

  it('reports recipients that are neither known nor fetchable', async() => {
    const resolved = await freshResolver().resolve([ actorId('missing') ]);
    expect(resolved.inboxes.size).toBe(0);
    expect(resolved.unresolved).toEqual([ actorId('missing') ]);
  });

  it('works without a store (cached or fetched actors only)', async() => {
    serveActor('a');
    const resolver = new InboxResolver(new RemoteActorCache(fetcher));
    expect((await resolver.resolve([ actorId('a') ])).inboxes).toEqual(new Set([ `${server.origin}/inbox` ]));
    await expect(resolver.flush()).resolves.toBeUndefined();
  });
});
