import { RemoteFetcher } from '../../../../../src/plugins/activitypub/fetch/RemoteFetcher';
import { parseHandle, selfLinkOf, WebFingerResolver } from '../../../../../src/plugins/activitypub/fetch/WebFingerResolver';
import type { AccountStore } from '../../../../../src/plugins/accounts/AccountStore';
import { LocalServer } from './localServer';

const WEBFINGER = '/.well-known/webfinger';

describe('WebFingerResolver', (): void => {
  let server: LocalServer;
  let fetcher: RemoteFetcher;
  let accounts: AccountStore;

  function resolver(allowPrivateNetwork = true): WebFingerResolver {
    fetcher = new RemoteFetcher(allowPrivateNetwork, 2_000);
    return new WebFingerResolver('https://pod.example/', fetcher, accounts, true);
  }

  beforeEach(async(): Promise<void> => {
    server = await new LocalServer().start();
    accounts = { findByUsername: jest.fn(async(name: string) => (name === 'alice' ? { username: 'alice' } : undefined)) } as unknown as AccountStore;
  });

  afterEach(async(): Promise<void> => {
    fetcher?.close();
    await server.stop();
  });

  it('parses the forms of a handle and refuses others', (): void => {
    expect(parseHandle('acct:Bob@Social.Example')).toEqual({ username: 'bob', host: 'social.example' });
    expect(parseHandle('@bob@localhost:3000')).toEqual({ username: 'bob', host: 'localhost:3000' });
    expect(parseHandle('bob', 'pod.example')).toEqual({ username: 'bob', host: 'pod.example' });
    for (const bad of [ 'bob', '@bob@', 'bob@host/path', 'bob@user@host', 'b b@host', 'bob@host:x', 'https://host/@bob', `bob@${'a'.repeat(300)}` ]) {
      expect(parseHandle(bad)).toBeUndefined();
    }
  });

  it('answers this server\'s handles from its accounts, without a request', async(): Promise<void> => {
    const webfinger = resolver();
    await expect(webfinger.resolve('@alice@pod.example')).resolves.toBe('https://pod.example/actors/alice');
    await expect(webfinger.resolve('alice')).resolves.toBe('https://pod.example/actors/alice');
    await expect(webfinger.resolve('nobody')).rejects.toMatchObject({ statusCode: 422, errorCode: 'unresolvable_handle' });
    expect(server.seen).toHaveLength(0);
  });

  it('resolves a remote handle by its self link, over http when https cannot be reached, and keeps the answer', async(): Promise<void> => {
    const actor = `${server.origin}/users/bob`;
    server.json(WEBFINGER, { subject: 'acct:bob@x', links: [
      { rel: 'http://webfinger.net/rel/profile-page', type: 'text/html', href: `${server.origin}/@bob` },
      { rel: 'self', type: 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"', href: actor },
    ]}, 200, 'application/jrd+json');
    const webfinger = resolver();
    const handle = `@bob@127.0.0.1:${server.port}`;
    expect(webfinger.peek(handle)).toBeUndefined();
    const [ first, second ] = await Promise.all([ webfinger.resolve(handle), webfinger.resolve(`acct:BOB@127.0.0.1:${server.port}`) ]);
    expect([ first, second ]).toEqual([ actor, actor ]);
    await expect(webfinger.resolve(handle)).resolves.toBe(actor);
    expect(webfinger.peek(`bob@127.0.0.1:${server.port}`)).toBe(actor);
    const asked = server.requestsTo(WEBFINGER);
    expect(asked).toHaveLength(1);
    expect(asked[0].url).toBe(`${WEBFINGER}?resource=${encodeURIComponent(`acct:bob@127.0.0.1:${server.port}`)}`);
  });

  it('refuses bad JRDs, unknown handles and malformed ones as client errors, and remembers failures', async(): Promise<void> => {
    const webfinger = resolver();
    server.json(WEBFINGER, { links: [{ rel: 'self', type: 'text/html', href: 'https://x.example/' }, { rel: 'self', type: 'application/activity+json', href: 'javascript:alert(1)' }]});
    const handle = `bob@127.0.0.1:${server.port}`;
    await expect(webfinger.resolve(handle)).rejects.toMatchObject({ statusCode: 422, errorCode: 'unresolvable_handle' });
    await expect(webfinger.resolve(handle)).rejects.toMatchObject({ statusCode: 422 });
    expect(server.requestsTo(WEBFINGER)).toHaveLength(1);
    server.routes.delete(WEBFINGER);
    await expect(webfinger.resolve(`carol@127.0.0.1:${server.port}`)).rejects.toMatchObject({ statusCode: 422 });
    await expect(webfinger.resolve('not a handle')).rejects.toMatchObject({ statusCode: 400, errorCode: 'invalid_handle' });
  });

  it('goes through the SSRF guard: loopback handles are refused without a request', async(): Promise<void> => {
    const webfinger = resolver(false);
    server.json(WEBFINGER, { links: [{ rel: 'self', type: 'application/activity+json', href: `${server.origin}/users/x` }]});
    await expect(webfinger.resolve(`@x@127.0.0.1:${server.port}`)).rejects.toMatchObject({ statusCode: 422 });
    await expect(webfinger.resolve(`@x@localhost:${server.port}`)).rejects.toMatchObject({ statusCode: 422 });
    expect(server.seen).toHaveLength(0);
  });

  it('finds the self link of a JRD', (): void => {
    expect(selfLinkOf({ links: [{ rel: 'self', type: 'application/activity+json', href: 'https://a.example/u' }]})).toBe('https://a.example/u');
    expect(selfLinkOf({ links: 'no' })).toBeUndefined();
    expect(selfLinkOf(null)).toBeUndefined();
    expect(selfLinkOf({ links: [{ rel: 'self', type: 'application/ld+json', href: 'https://a.example/u' }]})).toBeUndefined();
  });
});
