import { CollectionPageHandler } from '../../../../src/handlers/html/CollectionPageHandler';
import { agentFromTestHeader } from '../activitypub/support';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';
import type { OutboxWorld } from './support';
import { ALICE, BASE, BOB, BROWSER, openPage, startOutboxWorld } from './support';

describe('CollectionPageHandler (on the embedded store)', (): void => {
  let world: OutboxWorld;
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    world = await startOutboxWorld();
    server = await serveHandler(new CollectionPageHandler(BASE, world.graphs.collections, world.rules, world.documents.repository()),
      agentFromTestHeader);
  });

  afterAll(async(): Promise<void> => {
    await server.close();
    await world.graphs.stop();
  });

  const open = async(target: string, user?: string, method = 'GET'): ReturnType<typeof openPage> =>
    openPage(server.base, target, user, method);

  it('shows an outbox\'s posts newest first, other activities as one line, titled after the collection', async(): Promise<void> => {
    const page = await open('/actors/alice/outbox', 'alice');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.html).toContain('<title>Posts of @alice · Fedpod</title>');
    expect(page.html).toContain(`<p><a href="${ALICE}">@alice</a></p>\n<h1>Posts</h1>`);
    expect(page.html).toContain('<article><p>Like <a href="https://r.example/notes/9">https://r.example/notes/9</a></p></article>');
    const like = page.html.indexOf('Like <a');
    const followers = page.html.indexOf('for followers');
    const publicPost = page.html.indexOf('public words');
    expect([ like < followers, followers < publicPost ]).toEqual([ true, true ]);
  });

  it('shows another reader of a box only what is addressed to them', async(): Promise<void> => {
    const anonymous = await open('/actors/alice/outbox');
    expect(anonymous.html).toContain('public words');
    expect(anonymous.html).not.toContain('for followers');
    expect((await open('/actors/alice/outbox', 'bob')).html).toContain('for followers');
  });

  it('lists followers, following and liked as links, and shows pinned posts as posts', async(): Promise<void> => {
    expect((await open('/actors/alice/followers')).html).toContain(`<ul><li><a href="${BOB}">${BOB}</a></li></ul>`);
    const following = await open('/actors/alice/following');
    expect(following.html).toContain('<title>Following of @alice · Fedpod</title>');
    expect(following.html).toContain('<a href="https://r.example/u/x">');
    expect((await open('/actors/alice/liked')).html).toContain('<a href="https://r.example/notes/9">');
    const featured = await open('/actors/alice/featured');
    expect(featured.html).toContain('<h1>Pinned posts</h1>');
    expect(featured.html).toContain('public words');
  });

  it('says when there is nothing to show, and answers HEAD with the headers only', async(): Promise<void> => {
    expect((await open('/actors/bob/outbox')).html).toContain('<p class="meta">Nothing to show.</p>');
    const head = await open('/actors/alice/outbox', undefined, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.html).toBe('');
  });

  it('leaves data clients, writes and other paths to other handlers', async(): Promise<void> => {
    const refused = [
      await fetch(`${server.base}/actors/alice/outbox`, { headers: { accept: 'application/activity+json' }}),
      await fetch(`${server.base}/actors/alice/outbox`, { method: 'POST', headers: { accept: BROWSER }}),
      await fetch(`${server.base}/actors/alice`, { headers: { accept: BROWSER }}),
      await fetch(`${server.base}/actors/alice/albums`, { headers: { accept: BROWSER }}),
    ];
    expect(refused.map(declined)).toEqual([ true, true, true, true ]);
  });
});
