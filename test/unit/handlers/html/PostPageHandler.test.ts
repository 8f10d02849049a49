import { PostPageHandler } from '../../../../src/handlers/html/PostPageHandler';
import type { Json } from '../../../../src/plugins/activitypub/ActivityJson';
import type { ActorProfiles } from '../../../../src/plugins/activitypub/ActorProfiles';
import { DocumentsStandIn } from '../activitypub/support';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';

const BASE = 'https://pod.example/';
const ALICE = `${BASE}actors/alice`;
const BROWSER = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

describe('PostPageHandler', (): void => {
  const documents = new DocumentsStandIn();
  const profiles = new Map<string, Json>([ [ ALICE, { id: ALICE, type: 'Person', name: 'Alice A.' }] ]);
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    documents.documents.set(`${BASE}objects/n1`, { id: `${BASE}objects/n1`, type: 'Note', attributedTo: ALICE,
      content: '<p>A <em>long</em> first post that goes on and on well past the sixty characters of a title</p>',
      bcc: 'https://r.example/u/secret', published: '2026-02-03T04:05:06Z' });
    documents.documents.set(`${BASE}objects/a1`, { id: `${BASE}objects/a1`, type: 'Article', attributedTo: `${BASE}actors/bob`, name: 'Essay <1>' });
    documents.documents.set(`${BASE}objects/r1`, { id: `${BASE}objects/r1`, type: 'Note', attributedTo: 'https://r.example/u/carol', content: 'short' });
    documents.documents.set(`${BASE}objects/x1`, { id: `${BASE}objects/x1`, type: 'Note' });
    documents.documents.set(`${BASE}objects/gone`, { id: `${BASE}objects/gone`, type: 'Tombstone' });
    const actorProfiles = { read: async(actor: string): Promise<Json | undefined> => profiles.get(actor) } as unknown as ActorProfiles;
    server = await serveHandler(new PostPageHandler(BASE, documents.repository(), actorProfiles));
  });

  afterAll(async(): Promise<void> => {
    await server.close();
  });

  async function open(target: string, method = 'GET'): Promise<{ status: number; headers: Headers; html: string }> {
    const response = await fetch(`${server.base}${target}`, { method, headers: { accept: BROWSER }});
    return { status: response.status, headers: response.headers, html: await response.text() };
  }

  it('shows a post with its author\'s name and handle, titled with its first words, without blind copies', async(): Promise<void> => {
    const page = await open('/objects/n1');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.html).toContain('<title>Alice A.: A long first post that goes on and on well past the sixty… · Fedpod</title>');
    expect(page.html).toContain(`<a href="${ALICE}">Alice A.</a> <span class="handle">@alice@pod.example</span>`);
    expect(page.html).toContain('<h1>Post by Alice A.</h1>');
    expect(page.html).toContain('<em>long</em>');
    expect(page.html).toContain(`<a href="${BASE}objects/n1"><time`);
    expect(page.html).not.toContain('secret');
  });

  it('heads and titles an article with its name, plain text, and names a local author without a profile by username', async(): Promise<void> => {
    const page = await open('/objects/a1');
    expect(page.html).toContain('<h1>Essay &lt;1&gt;</h1>');
    expect(page.html).toContain('<title>bob: Essay &lt;1&gt; · Fedpod</title>');
    expect(page.html).toContain('<span class="handle">@bob@pod.example</span>');
  });

  it('names a remote author by IRI, and an unknown one "Someone"', async(): Promise<void> => {
    const remote = await open('/objects/r1');
    expect(remote.html).toContain('<a href="https://r.example/u/carol">https://r.example/u/carol</a> <span class="handle">https://r.example/u/carol</span>');
    const anonymous = await open('/objects/x1');
    expect(anonymous.html).toContain('<title>Someone: Note · Fedpod</title>');
    expect(anonymous.html).toContain('<p class="author"></p>');
  });

  it('answers HEAD with the headers only', async(): Promise<void> => {
    const page = await open('/objects/n1', 'HEAD');
    expect(page.status).toBe(200);
    expect(Number(page.headers.get('content-length'))).toBeGreaterThan(0);
    expect(page.html).toBe('');
  });

  it('answers 404 for no post and 410 for a deleted one, as pages', async(): Promise<void> => {
    const missing = await open('/objects/none');
    expect(missing.status).toBe(404);
    expect(missing.html).toContain(`No post at ${BASE}objects/none`);
    const gone = await open('/objects/gone');
    expect(gone.status).toBe(410);
    expect(gone.html).toContain('This post was deleted.');
  });

  it('leaves data clients, writes and other paths to other handlers', async(): Promise<void> => {
    const refused = [
      await fetch(`${server.base}/objects/n1`, { headers: { accept: 'application/activity+json' }}),
      await fetch(`${server.base}/objects/n1`),
      await fetch(`${server.base}/objects/n1`, { method: 'DELETE', headers: { accept: BROWSER }}),
      await fetch(`${server.base}/objects/`, { headers: { accept: BROWSER }}),
      await fetch(`${server.base}/objects/n1/replies`, { headers: { accept: BROWSER }}),
      await fetch(`${server.base}/activities/a1`, { headers: { accept: BROWSER }}),
    ];
    expect(refused.map(declined)).toEqual([ true, true, true, true, true, true ]);
  });
});
