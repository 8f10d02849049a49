import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import type { ActivityRepository } from '../../../../../src/plugins/activitypub/ActivityRepository';
import { RemoteActorCache } from '../../../../../src/plugins/activitypub/fetch/RemoteActorCache';
import { RemoteFetcher } from '../../../../../src/plugins/activitypub/fetch/RemoteFetcher';
import { RemotePosts } from '../../../../../src/plugins/activitypub/fetch/RemotePosts';
import { LocalServer } from './localServer';

const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

describe('RemotePosts', (): void => {
  let server: LocalServer;
  let fetcher: RemoteFetcher;
  let posts: RemotePosts;
  let kept: Json[];

  beforeEach(async(): Promise<void> => {
    server = await new LocalServer().start();
    fetcher = new RemoteFetcher(true);
    kept = [];
    const activities = {
      exists: async(iri: string): Promise<boolean> => kept.some((document): boolean => document.id === iri),
      storeRemote: async(document: Json): Promise<void> => {
        kept.push(document);
      },
    } as unknown as ActivityRepository;
    posts = new RemotePosts(new RemoteActorCache(fetcher), activities);
  });

  afterEach(async(): Promise<void> => {
    fetcher.close();
    await server.stop();
  });

  function serve(path: string, extra: Json): string {
    const id = `${server.origin}${path}`;
    server.json(path, { id, type: 'Note', attributedTo: `${server.origin}/users/bob`, content: 'hi', ...extra });
    return id;
  }

  it('keeps a public post by an author of the server that serves it, once', async(): Promise<void> => {
    const open = serve('/notes/open', { to: [ PUBLIC ]});
    const unlisted = serve('/notes/unlisted', { to: `${server.origin}/users/bob/followers`, cc: 'as:Public' });
    expect(await posts.fetch(open)).toMatchObject({ id: open, content: 'hi' });
    expect(await posts.fetch(open)).toMatchObject({ id: open });
    expect(await posts.fetch(unlisted)).toMatchObject({ id: unlisted });
    expect(kept.map((document): unknown => document.id)).toEqual([ open, unlisted ]);
  });

  it('keeps no post that is not public, nor one by another server\'s author, nor what is no post', async(): Promise<void> => {
    const followers = serve('/notes/followers', { to: [ `${server.origin}/users/bob/followers` ]});
    const forged = serve('/notes/forged', { to: [ PUBLIC ], attributedTo: 'https://elsewhere.example/users/eve' });
    const actor = serve('/users/carol', { type: 'Person', to: [ PUBLIC ]});
    for (const url of [ followers, forged, actor ]) {
      expect(await posts.fetch(url)).toBeUndefined();
    }
    expect(kept).toEqual([]);
    await expect(posts.fetch(`${server.origin}/missing`)).rejects.toThrow(/404/u);
  });
});
