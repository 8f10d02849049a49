import type { ServerResponse } from 'node:http';
import type { Json } from '../../../../src/plugins/activitypub/ActivityJson';
import { idOf } from '../../../../src/plugins/activitypub/ActivityJson';
import type { ActivityRepository } from '../../../../src/plugins/activitypub/ActivityRepository';
import { RemoteActorCache } from '../../../../src/plugins/activitypub/fetch/RemoteActorCache';
import { RemoteFetcher } from '../../../../src/plugins/activitypub/fetch/RemoteFetcher';
import type { MastodonRecords } from '../../../../src/plugins/mastodon/MastodonRecords';
import type { RemoteThreadsOptions } from '../../../../src/plugins/mastodon/RemoteThreads';
import { RemoteThreads } from '../../../../src/plugins/mastodon/RemoteThreads';
import type { UserDomainBlocks } from '../../../../src/plugins/moderation/UserDomainBlocks';
import { LocalServer } from '../activitypub/fetch/localServer';

const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
const BASE = 'http://here.example/';
const DAVE = { iri: `${BASE}actors/dave`, username: 'dave' };

/** Resolves once `check` holds (looked at every 20 ms). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) {
    await new Promise<void>((resolve): void => {
      setTimeout(resolve, 20);
    });
  }
}

describe('RemoteThreads', (): void => {
  let server: LocalServer;
  let fetcher: RemoteFetcher;
  /** What this server keeps, by IRI. */
  let stored: Map<string, Json>;
  let blocked: string[];

  const activities = {
    read: async(iri: string): Promise<Json | undefined> => stored.get(iri),
    exists: async(iri: string): Promise<boolean> => stored.has(iri),
    storeRemote: async(document: Json): Promise<void> => {
      stored.set(document.id as string, document);
    },
  } as unknown as ActivityRepository;
  const records = {
    repliesTo: async(iri: string): Promise<string[]> => [ ...stored.values() ]
      .filter((document): boolean => idOf(document.inReplyTo) === iri).map((document): string => document.id as string),
  } as unknown as MastodonRecords;
  const userDomainBlocks = {
    blocks: async(username: string, url: string): Promise<boolean> => blocked.includes(`${username} ${new URL(url).hostname}`),
  } as unknown as UserDomainBlocks;

  /** A read waits for all its fetches unless a test says otherwise (the machine may be slow). */
  function threads(options: Partial<RemoteThreadsOptions> = {}): RemoteThreads {
    return new RemoteThreads({ baseUrl: BASE, activities, actors: new RemoteActorCache(fetcher), records, userDomainBlocks,
      waitMs: 120_000, ...options });
  }

  /** A public post on the peer, replying to `inReplyTo`; its replies collection lists `replies` on one page. */
  function post(name: string, inReplyTo?: string, replies: string[] = [], extra: Json = {}): string {
    const id = `${server.origin}/notes/${name}`;
    server.json(`/notes/${name}`, { id, type: 'Note', attributedTo: `${server.origin}/users/bob`, content: name, to: [ PUBLIC ],
      ...inReplyTo ? { inReplyTo } : {}, replies: { id: `${id}/replies`, type: 'Collection', first: { type: 'CollectionPage', items: replies }},
      ...extra });
    server.json(`/notes/${name}/replies`, { id: `${id}/replies`, type: 'Collection', first: { type: 'CollectionPage', items: replies }});
    return id;
  }

  const url = (name: string): string => `${server.origin}/notes/${name}`;
  const local = (name: string, inReplyTo?: string): Json => ({ id: `${BASE}objects/${name}`, type: 'Note', to: [ PUBLIC ], ...inReplyTo ? { inReplyTo } : {}});
  /** A copy of a peer's post as delivered here: no replies collection named. */
  const delivered = (name: string, inReplyTo: string): Json => ({ id: url(name), type: 'Note', to: [ PUBLIC ], inReplyTo });

  beforeEach(async(): Promise<void> => {
    server = await new LocalServer().start();
    fetcher = new RemoteFetcher(true);
    stored = new Map();
    blocked = [];
  });

  afterEach(async(): Promise<void> => {
    fetcher.close();
    await server.stop();
  });

  it('fetches the replies the remote replies\' collections list, breadth first, public ones only', async(): Promise<void> => {
    post('answer', url('reply'), [ url('deeper') ]);
    post('deeper', url('answer'));
    post('quiet', url('reply'), [], { to: [ `${server.origin}/users/bob/followers` ]});
    post('reply', `${BASE}objects/root`, [ url('answer'), url('quiet') ]);
    stored.set(`${BASE}objects/root`, local('root'));
    stored.set(url('reply'), delivered('reply', `${BASE}objects/root`));

    await threads().fetch(`${BASE}objects/root`, DAVE);
    expect([ ...stored.keys() ]).toEqual([ `${BASE}objects/root`, url('reply'), url('answer'), url('deeper') ]);
    // The delivered copy named no collection: the post was read again for it.
    expect(server.requestsTo('/notes/reply')).toHaveLength(1);
  });

  it('reads at most maxPages pages of a collection and fetches at most maxDescendants posts', async(): Promise<void> => {
    const collection = `${url('top')}/replies`;
    server.json('/notes/top/replies', { id: collection, type: 'OrderedCollection', first: `${collection}/1` });
    for (const page of [ 1, 2, 3 ]) {
      server.json(`/notes/top/replies/${page}`, { id: `${collection}/${page}`, type: 'OrderedCollectionPage',
        orderedItems: [ url(`a${page}`), url(`b${page}`) ], ...page < 3 ? { next: `${collection}/${page + 1}` } : {}});
      post(`a${page}`, url('top'));
      post(`b${page}`, url('top'));
    }
    stored.set(url('top'), { ...delivered('top', `${BASE}objects/root`), replies: collection });

    await threads({ maxPages: 2, maxDescendants: 3 }).fetch(url('top'), DAVE);
    expect([ ...stored.keys() ]).toEqual([ url('top'), url('a1'), url('b1'), url('a2') ]);
    expect(server.requestsTo('/notes/top/replies/3')).toHaveLength(0);
  });

  it('fetches the missing ancestors up to maxAncestors', async(): Promise<void> => {
    post('first');
    post('second', url('first'));
    post('third', url('second'));
    stored.set(url('fourth'), delivered('fourth', url('third')));
    await threads({ maxAncestors: 2 }).fetch(url('fourth'), DAVE);
    expect(stored.has(url('third')) && stored.has(url('second'))).toBe(true);
    expect(stored.has(url('first'))).toBe(false);
    await threads().fetch(url('fourth'), DAVE);
    expect(stored.has(url('first'))).toBe(true);
  });

  it('fetches a post\'s parent and replies once in freshMs, whoever reads', async(): Promise<void> => {
    post('parent');
    stored.set(url('child'), { ...delivered('child', url('parent')), replies: `${url('child')}/replies` });
    server.json('/notes/child/replies', { id: `${url('child')}/replies`, type: 'Collection', items: []});
    const remembering = threads();
    await remembering.fetch(url('child'), DAVE);
    stored.delete(url('parent'));
    await remembering.fetch(url('child'), { iri: `${BASE}actors/erin`, username: 'erin' });
    expect(server.seen).toHaveLength(2);
    const forgetting = threads({ freshMs: 0 });
    await forgetting.fetch(url('child'), DAVE);
    await forgetting.fetch(url('child'), DAVE);
    expect(server.seen).toHaveLength(5);
  });

  it('fetches nothing for an anonymous reader, nor from a domain the reader blocked', async(): Promise<void> => {
    post('parent');
    stored.set(url('child'), delivered('child', url('parent')));
    await threads().fetch(url('child'), {});
    blocked.push('dave 127.0.0.1');
    await threads().fetch(url('child'), DAVE);
    expect(server.seen).toHaveLength(0);
    await threads().fetch(url('child'), { iri: `${BASE}actors/erin`, username: 'erin' });
    expect(stored.has(url('parent'))).toBe(true);
  });

  it('answers after waitMs while a slow peer is still being read, and keeps what comes later', async(): Promise<void> => {
    let answer: ServerResponse | undefined;
    server.routes.set('/notes/slow', (_request, response): void => {
      answer = response;
    });
    stored.set(url('child'), delivered('child', url('slow')));
    await threads({ waitMs: 50 }).fetch(url('child'), DAVE);
    // The answer came back with the peer's answer still to come.
    await until((): boolean => answer !== undefined);
    expect(stored.has(url('slow'))).toBe(false);
    answer!.writeHead(200, { 'content-type': 'application/activity+json' }).end(JSON.stringify({ id: url('slow'), type: 'Note',
      attributedTo: `${server.origin}/users/bob`, to: [ PUBLIC ]}));
    await until((): boolean => stored.has(url('slow')));
  });
});
