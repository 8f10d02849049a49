import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CachedRelations } from '../../../../src/plugins/activitypub/CachedRelations';
import { FileChangeCounter } from '../../../../src/plugins/cluster/FileChangeCounter';
import type { Collections } from '../../../../src/storage/Collections';
import type { EmbeddedGraphs } from '../../support/embeddedGraphs';
import { startEmbeddedGraphs } from '../../support/embeddedGraphs';

const BASE = 'https://pod.example/';
const SENDER = 'https://remote.example/users/sam';
const FOLLOWING = `${BASE}actors/alice/following`;
const BLOCKED = `${BASE}actors/bob/blocked`;
const FOLLOWERS = `${BASE}actors/carol/followers`;
const WATCHED = [ '/following', '/blocked', '/followers' ];

/** The store's collections, counting the membership and list queries that reach it, and able to hold one back. */
function counting(inner: Collections): { collections: Collections; asked: () => number; listed: () => number; hold: () => () => void } {
  let asked = 0;
  let listed = 0;
  let gate: Promise<void> | undefined;
  const collections: Collections = {
    add: async(collection, item, at) => inner.add(collection, item, at),
    addAll: async(additions, alongWith) => inner.addAll(additions, alongWith),
    remove: async(collection, item) => inner.remove(collection, item),
    clear: async(collection) => inner.clear(collection),
    contains: async(collection, item) => inner.contains(collection, item),
    holdsItemAbout: async(collection, iri) => inner.holdsItemAbout(collection, iri),
    count: async(collection, addressedTo) => inner.count(collection, addressedTo),
    counts: async(collections) => inner.counts(collections),
    page: async(collection, query) => inner.page(collection, query),
    collectionsContaining: async(item, ...suffixes) => {
      asked += 1;
      const answer = await inner.collectionsContaining(item, ...suffixes);
      await gate;
      return answer;
    },
    all: async(collection) => {
      listed += 1;
      return inner.all(collection);
    },
  };
  return {
    collections,
    asked: (): number => asked,
    listed: (): number => listed,
    hold: (): (() => void) => {
      let open: () => void = (): void => undefined;
      gate = new Promise<void>((resolve): void => {
        open = resolve;
      });
      return (): void => {
        gate = undefined;
        open();
      };
    },
  };
}

describe('CachedRelations (on the embedded store)', (): void => {
  let graphs: EmbeddedGraphs;
  let dataDir: string;

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs(BASE);
  });

  afterAll(async(): Promise<void> => {
    await graphs.stop();
  });

  beforeEach(async(): Promise<void> => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fedpod-memberships-'));
    for (const collection of [ FOLLOWING, BLOCKED, FOLLOWERS, `${BASE}actors/carol/inbox` ]) {
      for (const item of await graphs.collections.all(collection)) {
        await graphs.collections.remove(collection, item);
      }
    }
  });

  afterEach((): void => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers who follows or blocked an actor from memory until such a collection changes here', async(): Promise<void> => {
    const store = counting(graphs.collections);
    const cached = new CachedRelations(store.collections, WATCHED, new FileChangeCounter(dataDir, 'relation-changes'));
    await cached.add(FOLLOWING, SENDER);
    expect(await cached.collectionsContaining(SENDER, '/following', '/blocked')).toEqual([ FOLLOWING ]);
    expect(await cached.collectionsContaining(SENDER, '/following', '/blocked')).toEqual([ FOLLOWING ]);
    expect(store.asked()).toBe(1);
    await cached.add(BLOCKED, SENDER);
    expect((await cached.collectionsContaining(SENDER, '/following', '/blocked')).sort()).toEqual([ FOLLOWING, BLOCKED ].sort());
    await cached.remove(FOLLOWING, SENDER);
    expect(await cached.collectionsContaining(SENDER, '/following', '/blocked')).toEqual([ BLOCKED ]);
    expect(store.asked()).toBe(3);
  });

  it('sees a change another node made, through the shared counter', async(): Promise<void> => {
    const here = new CachedRelations(graphs.collections, WATCHED, new FileChangeCounter(dataDir, 'relation-changes'));
    const there = new CachedRelations(graphs.collections, WATCHED, new FileChangeCounter(dataDir, 'relation-changes'));
    expect(await here.collectionsContaining(SENDER, '/following', '/blocked')).toEqual([]);
    await there.add(BLOCKED, SENDER);
    expect(await here.collectionsContaining(SENDER, '/following', '/blocked')).toEqual([ BLOCKED ]);
    // Without the counter, only this node's own changes are seen (the case the counter is for).
    const alone = new CachedRelations(graphs.collections, WATCHED);
    expect(await alone.collectionsContaining(SENDER, '/following', '/blocked')).toEqual([ BLOCKED ]);
    await there.remove(BLOCKED, SENDER);
    expect(await alone.collectionsContaining(SENDER, '/following', '/blocked')).toEqual([ BLOCKED ]);
    expect(await here.collectionsContaining(SENDER, '/following', '/blocked')).toEqual([]);
  });

  it('forgets who follows an actor when several adds at once include such a collection', async(): Promise<void> => {
    const store = counting(graphs.collections);
    const cached = new CachedRelations(store.collections, WATCHED);
    const inbox = `${BASE}actors/carol/inbox`;
    expect(await cached.collectionsContaining(SENDER, '/following', '/blocked')).toEqual([]);
    await cached.addAll([{ collection: inbox, item: SENDER }]);
    expect(await cached.collectionsContaining(SENDER, '/following', '/blocked')).toEqual([]);
    expect(store.asked()).toBe(1);
    await cached.addAll([{ collection: inbox, item: `${SENDER}/2` }, { collection: FOLLOWING, item: SENDER }]);
    expect(await cached.collectionsContaining(SENDER, '/following', '/blocked')).toEqual([ FOLLOWING ]);
    expect(store.asked()).toBe(2);
    await cached.remove(inbox, `${SENDER}/2`);
    await cached.remove(inbox, SENDER);
  });

  it('does not keep an answer read while a change was under way', async(): Promise<void> => {
    const store = counting(graphs.collections);
    const cached = new CachedRelations(store.collections, WATCHED);
    const release = store.hold();
    // Read before the follow is stored, answered after it.
    const stale = cached.collectionsContaining(SENDER, '/following', '/blocked');
    await new Promise((resolve): unknown => setTimeout(resolve, 20));
    await cached.add(FOLLOWING, SENDER);
    release();
    expect(await stale).toEqual([]);
    expect(await cached.collectionsContaining(SENDER, '/following', '/blocked')).toEqual([ FOLLOWING ]);
    expect(store.asked()).toBe(2);
  });

  it('keeps the followers of an actor until they change, here or on another node', async(): Promise<void> => {
    const store = counting(graphs.collections);
    const here = new CachedRelations(store.collections, WATCHED, new FileChangeCounter(dataDir, 'relation-changes'));
    const there = new CachedRelations(graphs.collections, WATCHED, new FileChangeCounter(dataDir, 'relation-changes'));
    await here.add(FOLLOWERS, SENDER);
    expect(await here.all(FOLLOWERS)).toEqual([ SENDER ]);
    expect(await here.all(FOLLOWERS)).toEqual([ SENDER ]);
    expect(store.listed()).toBe(1);
    const other = 'https://remote.example/users/uma';
    await there.add(FOLLOWERS, other);
    expect(await here.all(FOLLOWERS)).toEqual([ SENDER, other ]);
    await here.remove(FOLLOWERS, SENDER);
    expect(await here.all(FOLLOWERS)).toEqual([ other ]);
    expect(store.listed()).toBe(3);
    await here.remove(FOLLOWERS, other);
  });

  it('forgets a watched collection that is cleared', async(): Promise<void> => {
    const here = new CachedRelations(graphs.collections, WATCHED, new FileChangeCounter(dataDir, 'relation-changes'));
    await here.add(FOLLOWERS, SENDER);
    expect(await here.all(FOLLOWERS)).toEqual([ SENDER ]);
    expect(await here.collectionsContaining(SENDER, '/followers')).toEqual([ FOLLOWERS ]);
    await here.clear(FOLLOWERS);
    expect(await here.all(FOLLOWERS)).toEqual([]);
    expect(await here.collectionsContaining(SENDER, '/followers')).toEqual([]);
  });

  it('leaves other collections and other questions to the store', async(): Promise<void> => {
    const store = counting(graphs.collections);
    const cached = new CachedRelations(store.collections, WATCHED);
    const inbox = `${BASE}actors/carol/inbox`;
    await cached.add(inbox, SENDER);
    expect(await cached.collectionsContaining(SENDER, '/inbox')).toEqual([ inbox ]);
    expect(await cached.collectionsContaining(SENDER, '/inbox')).toEqual([ inbox ]);
    expect(store.asked()).toBe(2);
    expect(await cached.all(inbox)).toEqual([ SENDER ]);
    expect(await cached.all(inbox)).toEqual([ SENDER ]);
    expect(store.listed()).toBe(2);
    expect(await cached.contains(inbox, SENDER)).toBe(true);
    expect(await cached.count(inbox)).toBe(1);
    expect((await cached.page(inbox, { limit: 10 })).items.map((item) => item.iri)).toEqual([ SENDER ]);
    await cached.remove(inbox, SENDER);
  });
});
