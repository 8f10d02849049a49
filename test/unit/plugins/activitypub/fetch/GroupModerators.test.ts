import { GroupModerators } from '../../../../../src/plugins/activitypub/fetch/GroupModerators';
import { RemoteActorCache } from '../../../../../src/plugins/activitypub/fetch/RemoteActorCache';
import { RemoteFetcher } from '../../../../../src/plugins/activitypub/fetch/RemoteFetcher';
import { LocalServer } from './localServer';

describe('GroupModerators', (): void => {
  let server: LocalServer;
  let fetcher: RemoteFetcher;
  let moderators: GroupModerators;

  beforeEach(async(): Promise<void> => {
    server = await new LocalServer().start();
    fetcher = new RemoteFetcher(true);
    moderators = new GroupModerators(new RemoteActorCache(fetcher), fetcher);
  });

  afterEach(async(): Promise<void> => {
    fetcher.close();
    await server.stop();
  });

  function group(path: string, extra: Record<string, unknown>): string {
    const id = `${server.origin}${path}`;
    server.json(path, { id, type: 'Group', inbox: `${id}/inbox`, ...extra });
    return id;
  }

  it('reads a Lemmy community\'s moderators from the collection its attributedTo names, once', async(): Promise<void> => {
    const id = group('/c/main', { attributedTo: `${server.origin}/c/main/moderators` });
    server.json('/c/main/moderators', { type: 'OrderedCollection', orderedItems: [ `${server.origin}/u/mod` ] });
    expect(await moderators.isModerator(id, `${server.origin}/u/mod`)).toBe(true);
    expect(await moderators.isModerator(id, `${server.origin}/u/someone`)).toBe(false);
    expect(server.requestsTo('/c/main/moderators')).toHaveLength(1);
  });

  it('reads an Mbin magazine\'s moderators from the first page of its moderators collection', async(): Promise<void> => {
    const id = group('/m/tech', { moderators: `${server.origin}/m/tech/moderators` });
    server.routes.set('/m/tech/moderators', (request, response): void => {
      const page = request.url?.includes('page=1');
      response.writeHead(200, { 'content-type': 'application/activity+json' });
      response.end(JSON.stringify(page ?
        { type: 'OrderedCollectionPage', orderedItems: [ { id: `${server.origin}/u/mod`, type: 'Person' } ] } :
        { type: 'OrderedCollection', first: `${server.origin}/m/tech/moderators?page=1` }));
    });
    expect(await moderators.isModerator(id, `${server.origin}/u/mod`)).toBe(true);
  });

  it('has no moderators for an actor that is no Group, or a list on another server', async(): Promise<void> => {
    const person = `${server.origin}/u/alice`;
    server.json('/u/alice', { id: person, type: 'Person', inbox: `${person}/inbox`, attributedTo: `${server.origin}/mods` });
    server.json('/mods', { type: 'Collection', items: [ `${server.origin}/u/mod` ] });
    expect(await moderators.isModerator(person, `${server.origin}/u/mod`)).toBe(false);
    const id = group('/c/other', { attributedTo: 'http://elsewhere.invalid/mods' });
    expect(await moderators.isModerator(id, `${server.origin}/u/mod`)).toBe(false);
  });

  it('keeps at most maxGroups Groups, dropping the least recently asked', async(): Promise<void> => {
    const bounded = new GroupModerators(new RemoteActorCache(fetcher), fetcher, 600_000, 2);
    const mod = `${server.origin}/u/mod`;
    const ids = [ 'a', 'b', 'c' ].map((name): string => {
      server.json(`/c/${name}/moderators`, { type: 'OrderedCollection', orderedItems: [ mod ] });
      return group(`/c/${name}`, { attributedTo: `${server.origin}/c/${name}/moderators` });
    });
    for (const id of [ ids[0], ids[1], ids[0], ids[2], ids[0], ids[1] ]) {
      expect(await bounded.isModerator(id, mod)).toBe(true);
    }
    // a stayed (asked again before c came); b was dropped for c, so it was read again.
    expect(server.requestsTo('/c/a/moderators')).toHaveLength(1);
    expect(server.requestsTo('/c/b/moderators')).toHaveLength(2);
    expect(server.requestsTo('/c/c/moderators')).toHaveLength(1);
  });
});
