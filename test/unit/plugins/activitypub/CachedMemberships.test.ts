import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CachedMemberships } from '../../../../src/plugins/activitypub/CachedMemberships';
import { FileChangeCounter } from '../../../../src/plugins/cluster/FileChangeCounter';
import type { Collections } from '../../../../src/storage/Collections';
import type { EmbeddedGraphs } from '../../support/embeddedGraphs';
import { startEmbeddedGraphs } from '../../support/embeddedGraphs';

const BASE = 'https://pod.example/';
const SENDER = 'https://remote.example/users/sam';
const FOLLOWING = `${BASE}actors/alice/following`;
const BLOCKED = `${BASE}actors/bob/blocked`;
const FOLLOWERS = `${BASE}actors/carol/followers`;
const WATCHED = [ '/following', '/blocked' ];

/** The store's collections, counting the membership queries that reach it, and able to hold one back. */
function counting(inner: Collections): { collections: Collections; asked: () => number; hold: () => () => void } {
  let asked = 0;
  let gate: Promise<void> | undefined;
  const collections = Object.create(inner) as Collections;
  collections.collectionsContaining = async(item: string, ...suffixes: string[]): Promise<string[]> => {
    asked += 1;
    const answer = await inner.collectionsContaining(item, ...suffixes);
    await gate;
    return answer;
  };
  return {
    collections,
    asked: (): number => asked,
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

describe('CachedMemberships (on the embedded store)', (): void => {
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
    for (const collection of [ FOLLOWING, BLOCKED, FOLLOWERS ]) {
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
    const cached = new CachedMemberships(store.collections, WATCHED, new FileChangeCounter(dataDir, 'membership-changes'));
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
    const here = new CachedMemberships(graphs.collections, WATCHED, new FileChangeCounter(dataDir, 'membership-changes'));
    const there = new CachedMemberships(graphs.collections, WATCHED, new FileChangeCounter(dataDir, 'membership-changes'));
    expect(await here.collectionsContaining(SENDER, '/following', '/blocked')).toEqual([]);
    await there.add(BLOCKED, SENDER);
    expect(await here.collectionsContaining(SENDER, '/following', '/blocked')).toEqual([ BLOCKED ]);
    // Without the counter, only this node's own changes are seen (the case the counter is for).
    const alone = new CachedMemberships(graphs.collections, WATCHED);
    expect(await alone.collectionsContaining(SENDER, '/following', '/blocked')).toEqual([ BLOCKED ]);
    await there.remove(BLOCKED, SENDER);
    expect(await alone.collectionsContaining(SENDER, '/following', '/blocked')).toEqual([ BLOCKED ]);
    expect(await here.collectionsContaining(SENDER, '/following', '/blocked')).toEqual([]);
  });

  it('does not keep an answer read while a change was under way', async(): Promise<void> => {
    const store = counting(graphs.collections);
    const cached = new CachedMemberships(store.collections, WATCHED);
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

  it('leaves other collections and other questions to the store', async(): Promise<void> => {
    const store = counting(graphs.collections);
    const cached = new CachedMemberships(store.collections, WATCHED);
    await cached.add(FOLLOWERS, SENDER);
    expect(await cached.collectionsContaining(SENDER, '/followers', '/following')).toEqual([ FOLLOWERS ]);
    expect(await cached.collectionsContaining(SENDER, '/followers', '/following')).toEqual([ FOLLOWERS ]);
    expect(store.asked()).toBe(2);
    expect(await cached.contains(FOLLOWERS, SENDER)).toBe(true);
    expect(await cached.count(FOLLOWERS)).toBe(1);
    expect(await cached.all(FOLLOWERS)).toEqual([ SENDER ]);
    expect((await cached.page(FOLLOWERS, { limit: 10 })).items.map((item) => item.iri)).toEqual([ SENDER ]);
  });
});
