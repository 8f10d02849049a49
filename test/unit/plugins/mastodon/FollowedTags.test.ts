import { ActivityEvents } from '../../../../src/plugins/activitypub/ActivityEvents';
import type { Json } from '../../../../src/plugins/activitypub/ActivityJson';
import { ActorUrls } from '../../../../src/plugins/activitypub/ActorUrls';
import { FollowedTags, homeCollections } from '../../../../src/plugins/mastodon/FollowedTags';
import { eventually } from '../../../support/eventually';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../../support/embeddedGraphs';

const BASE = 'http://localhost:3000/';
const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

const create = (id: string, to: string[], tags: string[], extra: Json = {}): Json => ({
  id, type: 'Create', actor: 'https://remote.example/users/zoe',
  object: { id: `${id}/note`, type: 'Note', to, tag: tags.map((name): Json => ({ type: 'Hashtag', name, href: `https://remote.example/tags/${name}` })) },
  ...extra,
});

describe('FollowedTags', (): void => {
  let graphs: EmbeddedGraphs;
  let events: ActivityEvents;
  let tags: FollowedTags;

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs(BASE);
  });

  afterAll(async(): Promise<void> => {
    await graphs.stop();
  });

  beforeEach(async(): Promise<void> => {
    await graphs.client.update('DROP ALL');
    events = new ActivityEvents();
    tags = new FollowedTags({ client: graphs.client, collections: graphs.collections, events, baseUrl: BASE });
  });

  it('keys a tag as Mastodon does, and refuses what cannot be one', (): void => {
    expect(FollowedTags.keyOf('#Café_2')).toBe('café_2');
    for (const name of [ '', '#', '123', 'two words', 'a-b', 'x'.repeat(101) ]) {
      expect((): string => FollowedTags.keyOf(name)).toThrow('Record not found');
    }
  });

  it('follows once, unfollows, and keeps each user\'s tags apart', async(): Promise<void> => {
    await tags.follow('bob', 'Cats');
    await tags.follow('bob', '#cats');
    await tags.follow('carol', 'dogs');
    expect((await tags.list('bob', { limit: 10 })).map((follow): string => follow.name)).toEqual([ 'cats' ]);
    expect([ ...await tags.followed('bob', [ 'cats', 'dogs' ]) ]).toEqual([ 'cats' ]);
    expect((await tags.followersOf([ 'cats', 'dogs', 'birds' ])).sort()).toEqual([ 'bob', 'carol' ]);
    expect(await tags.entity('cats', 'carol')).toEqual({ id: 'cats', name: 'cats', url: `${BASE}tags/cats`, history: [], following: false });
    expect(await tags.unfollow('bob', 'CATS')).toMatchObject({ following: false });
    expect(await tags.followersOf([ 'cats' ])).toEqual([]);
  });

  it('names as recipients the followers of a public post\'s tags, beside those who have it already', async(): Promise<void> => {
    await tags.follow('bob', 'cats');
    await tags.follow('carol', 'cats');
    await tags.follow('dave', 'dogs');
    const event = (activity: Json, usernames: string[] = []): Parameters<FollowedTags['recipientsOf']>[0] =>
      ({ activity, box: 'inbox', usernames });
    expect((await tags.recipientsOf(event(create('https://remote.example/1', [ PUBLIC ], [ '#Cats' ]), [ 'carol' ])))).toEqual([ 'bob' ]);
    expect(await tags.recipientsOf(event(create('https://remote.example/2', [ 'as:Public' ], [ '#dogs', '#cats' ])))).toHaveLength(3);
    // Unlisted (Public in cc only), followers-only, another type, no tags: nobody.
    expect(await tags.recipientsOf(event({ ...create('https://remote.example/3', [], [ '#cats' ]), cc: [ PUBLIC ]}))).toEqual([]);
    expect(await tags.recipientsOf(event(create('https://remote.example/4', [ 'https://remote.example/users/zoe/followers' ], [ '#cats' ])))).toEqual([]);
    expect(await tags.recipientsOf(event({ ...create('https://remote.example/5', [ PUBLIC ], [ '#cats' ]), type: 'Announce' }))).toEqual([]);
    expect(await tags.recipientsOf(event(create('https://remote.example/6', [ PUBLIC ], [])))).toEqual([]);
  });

  it('adds a public tagged post to its followers\' feeds when it is stored, which their home merges', async(): Promise<void> => {
    await tags.follow('bob', 'cats');
    const told: string[][] = [];
    tags.listen((event, recipients): void => {
      told.push(recipients);
    });
    const activity = create('https://remote.example/7', [ PUBLIC ], [ '#cats' ]);
    events.emit({ activity, box: 'inbox', usernames: [ 'alice' ]});
    const feed = tags.feedOf('bob');
    expect(homeCollections(new ActorUrls(BASE), 'bob', tags)).toEqual([ `${BASE}actors/bob/inbox`, `${BASE}actors/bob/outbox`, feed ]);
    expect(feed.startsWith('http')).toBe(false);
    // The listener runs after the event; waited for, with the test's generous timeout.
    await eventually(async(): Promise<boolean> => graphs.collections.contains(feed, activity.id as string));
    expect(await graphs.collections.contains(tags.feedOf('alice'), activity.id as string)).toBe(false);
    // Its listeners (the streaming API) are told who took it, once it is in their feeds.
    await eventually(async(): Promise<boolean> => told.length > 0);
    expect(told).toEqual([[ 'bob' ]]);

    // A deleted account's tags and feed go; nobody else's.
    await tags.follow('carol', 'cats');
    await tags.removeAccountData('bob');
    expect(await graphs.collections.all(feed)).toEqual([]);
    expect(await tags.list('bob', { limit: 10 })).toEqual([]);
    expect(await tags.followersOf([ 'cats' ])).toEqual([ 'carol' ]);
    const left = await graphs.client.select(`SELECT ?g WHERE { GRAPH ?g { ?s ?p ?o } FILTER(CONTAINS(STR(?g), "${BASE}actors/bob")) } LIMIT 5`);
    expect(left).toEqual([]);
  });
});
