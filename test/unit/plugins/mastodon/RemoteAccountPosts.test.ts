import type { ActivityRepository } from '../../../../src/plugins/activitypub/ActivityRepository';
import type { RemoteActorCache } from '../../../../src/plugins/activitypub/fetch/RemoteActorCache';
import type { MastodonRecords } from '../../../../src/plugins/mastodon/MastodonRecords';
import type { MastodonStatuses } from '../../../../src/plugins/mastodon/MastodonStatuses';
import type { MastodonStatus } from '../../../../src/plugins/mastodon/StatusEntity';
import { RemoteAccountPosts } from '../../../../src/plugins/mastodon/RemoteAccountPosts';

const ACTOR = 'https://remote.example/users/bob';
const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

/** A Create of a Note as an outbox page embeds it. */
function create(n: number, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: `${ACTOR}/activities/${n}`, type: 'Create', actor: ACTOR, object: { id: `${ACTOR}/notes/${n}`, type: 'Note',
    attributedTo: ACTOR, to: [ PUBLIC ], content: `note ${n}`, published: `2026-03-0${n}T00:00:00Z`, ...fields }};
}

describe('RemoteAccountPosts', (): void => {
  let fetched: string[];
  let stored: string[];
  let documents: Record<string, Record<string, unknown>>;
  let posts: RemoteAccountPosts;

  beforeEach((): void => {
    fetched = [];
    stored = [];
    documents = {
      [`${ACTOR}/outbox`]: { id: `${ACTOR}/outbox`, type: 'OrderedCollection', first: `${ACTOR}/outbox?page=1` },
      [`${ACTOR}/outbox?page=1`]: { id: `${ACTOR}/outbox?page=1`, type: 'OrderedCollectionPage', next: `${ACTOR}/outbox?page=2`, orderedItems: [
        create(1),
        create(2, { to: [ `${ACTOR}/followers` ] }),
        create(3, { id: 'https://elsewhere.example/notes/3' }),
        create(4, { attributedTo: 'https://remote.example/users/carol' }),
        `${ACTOR}/activities/5`,
        { ...create(6), actor: 'https://remote.example/users/carol' },
        create(7),
        create(8),
      ]},
    };
    const actors = {
      getActor: async(iri: string): Promise<unknown> => ({ id: iri, inbox: `${iri}/inbox`, outbox: `${iri}/outbox` }),
      fetchDocument: async(url: string): Promise<unknown> => {
        fetched.push(url);
        if (!documents[url]) {
          throw new Error(`404 ${url}`);
        }
        return documents[url];
      },
    } as unknown as RemoteActorCache;
    const activities = {
      exists: async(iri: string): Promise<boolean> => stored.includes(iri),
      storeRemote: async(object: { id: string }): Promise<void> => {
        stored.push(object.id);
      },
    } as unknown as ActivityRepository;
    const records = { idOf: async(iri: string): Promise<string> => `id-${iri.split('/').pop()}` } as unknown as MastodonRecords;
    const statuses = {
      get: async(id: string): Promise<MastodonStatus> => ({ id, created_at: `2026-03-0${id.slice(-1)}T00:00:00.000Z` }) as MastodonStatus,
      filtered: async(found: MastodonStatus[]): Promise<MastodonStatus[]> => found,
    } as unknown as MastodonStatuses;
    posts = new RemoteAccountPosts({ actors, activities, records, statuses, maxPosts: 2, ttlMs: 60_000 });
  });

  it('keeps only the public posts of the actor on its server, embedded in the first page, up to the limit, newest first', async(): Promise<void> => {
    const shown = await posts.recent(ACTOR, { iri: undefined });
    expect(shown.map((status): string => status.id)).toEqual([ 'id-7', 'id-1' ]);
    expect(stored).toEqual([ `${ACTOR}/notes/1`, `${ACTOR}/notes/7` ]);
    // One page, no item fetched on its own.
    expect(fetched).toEqual([ `${ACTOR}/outbox`, `${ACTOR}/outbox?page=1` ]);
  });

  it('fetches nothing for a reader who is no user: only what a fetch kept', async(): Promise<void> => {
    expect(await posts.recent(ACTOR, { iri: undefined }, false)).toEqual([]);
    expect(fetched).toEqual([]);
    await posts.recent(ACTOR, { iri: 'https://pod.example/actors/alice', username: 'alice' });
    expect((await posts.recent(ACTOR, { iri: undefined }, false)).map((status): string => status.id)).toEqual([ 'id-7', 'id-1' ]);
    expect(fetched).toHaveLength(2);
  });

  it('fetches an actor\'s outbox once while it is kept, and a failure gives no posts', async(): Promise<void> => {
    await Promise.all([ posts.recent(ACTOR, { iri: undefined }), posts.recent(ACTOR, { iri: undefined }) ]);
    await posts.recent(ACTOR, { iri: undefined });
    expect(fetched).toHaveLength(2);
    const other = 'https://remote.example/users/dave';
    expect(await posts.recent(other, { iri: undefined })).toEqual([]);
    expect(await posts.recent(other, { iri: undefined })).toEqual([]);
    expect(fetched.filter((url): boolean => url.startsWith(other))).toEqual([ `${other}/outbox` ]);
  });
});
