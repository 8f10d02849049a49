import { ProfilePageHandler } from '../../../../src/handlers/html/ProfilePageHandler';
import type { Json } from '../../../../src/plugins/activitypub/ActivityJson';
import type { ActorProfiles } from '../../../../src/plugins/activitypub/ActorProfiles';
import { agentFromTestHeader } from '../activitypub/support';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';
import type { OutboxWorld } from './support';
import { ALICE, BASE, BROWSER, openPage, startOutboxWorld } from './support';

describe('ProfilePageHandler (on the embedded store)', (): void => {
  const profiles = new Map<string, Json>();
  let world: OutboxWorld;
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    world = await startOutboxWorld();
    profiles.set(ALICE, { id: ALICE, type: 'Person', name: 'Alice <A>', summary: '<p>Hi <script>x()</script>there</p>',
      icon: { type: 'Image', url: 'https://cdn.example/alice.png' }});
    profiles.set(`${BASE}actors/moved`, { id: `${BASE}actors/moved`, type: 'Person', name: '', movedTo: 'https://new.example/u/moved',
      icon: 'javascript:alert(1)' });
    const actorProfiles = { read: async(actor: string): Promise<Json | undefined> => profiles.get(actor) } as unknown as ActorProfiles;
    server = await serveHandler(new ProfilePageHandler(BASE, actorProfiles, world.graphs.collections, world.rules,
      world.documents.repository()), agentFromTestHeader);
  });

  afterAll(async(): Promise<void> => {
    await server.close();
    await world.graphs.stop();
  });

  const open = async(target: string, user?: string, method = 'GET'): ReturnType<typeof openPage> =>
    openPage(server.base, target, user, method);

  it('shows the profile: name, handle, avatar, summary made safe, counts and how to follow', async(): Promise<void> => {
    const page = await open('/actors/alice');
    expect(page.status).toBe(200);
    expect(page.html).toContain('<title>Alice &lt;A&gt; (@alice@pod.example) · Fedpod</title>');
    expect(page.html).toContain('<img class="avatar" src="https://cdn.example/alice.png" alt="">');
    expect(page.html).toContain('<div class="summary"><p>Hi there</p></div>');
    expect(page.html).toContain(`<a href="${ALICE}/following"><strong>2</strong> following</a>`);
    expect(page.html).toContain(`<a href="${ALICE}/followers"><strong>1</strong> followers</a>`);
    expect(page.html).toContain('search for <code>@alice@pod.example</code>');
  });

  it('shows an anonymous reader only the public posts and counts', async(): Promise<void> => {
    const page = await open('/actors/alice');
    expect(page.html).toContain(`<a href="${ALICE}/outbox"><strong>2</strong> activities</a>`);
    expect(page.html).toContain('public words');
    expect(page.html).not.toContain('for followers');
    // A Like is counted, not shown as a post.
    expect(page.html).not.toContain('r.example/notes/9');
  });

  it('shows a follower and the owner the followers-only posts too', async(): Promise<void> => {
    for (const user of [ 'bob', 'alice' ]) {
      const page = await open('/actors/alice', user);
      expect(page.html).toContain('<strong>3</strong> activities');
      expect(page.html).toContain('for followers');
      expect(page.html.indexOf('for followers')).toBeLessThan(page.html.indexOf('public words'));
    }
    expect((await open('/actors/alice', 'carol')).html).not.toContain('for followers');
  });

  it('says where a moved account went, names it by username, shows no unsafe avatar and no posts', async(): Promise<void> => {
    const page = await open('/actors/moved');
    expect(page.html).toContain('This account has moved to <a href="https://new.example/u/moved">https://new.example/u/moved</a>.');
    expect(page.html).toContain('<h1>moved</h1>');
    expect(page.html).not.toContain('javascript:');
    expect(page.html).toContain('<strong>0</strong> activities');
    expect(page.html).toContain('No posts to show.');
  });

  it('answers 404 for an actor without a profile, and HEAD with the headers only', async(): Promise<void> => {
    const missing = await open('/actors/nobody');
    expect(missing.status).toBe(404);
    expect(missing.html).toContain(`No actor at ${BASE}actors/nobody`);
    const head = await open('/actors/alice', undefined, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.html).toBe('');
  });

  it('leaves data clients, writes and other paths to other handlers', async(): Promise<void> => {
    const refused = [
      await fetch(`${server.base}/actors/alice`, { headers: { accept: 'application/activity+json' }}),
      await fetch(`${server.base}/actors/alice`, { method: 'POST', headers: { accept: BROWSER }}),
      await fetch(`${server.base}/actors/alice/outbox`, { headers: { accept: BROWSER }}),
      await fetch(`${server.base}/actors/`, { headers: { accept: BROWSER }}),
    ];
    expect(refused.map(declined)).toEqual([ true, true, true, true ]);
  });
});
