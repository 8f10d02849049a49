/**
 * The web app over plain HTTP: the front page at / for browsers (the root container for RDF
 * clients), the session cookie that reaches the app's pages and nothing else, the form key every
 * form needs, the Content-Security-Policy of its pages, and the audience rules of its pages.
 */
import sharp from 'sharp';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { eventually } from '../../support/eventually';
import { signup, type Session } from '../../support/local-actors';
import { wavTone } from '../../support/sample-media';

const HTML = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

describe('the web app over HTTP', () => {
  let server: FedpodServer;
  let alice: Session;
  let carol: Session;

  const cookieOf = (session: Session): string => `fedpod_web_session=${session.token}`;

  const page = async(path: string, session?: Session, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${server.baseUrl}${path}`, { redirect: 'manual', headers: { accept: HTML, ...session ? { cookie: cookieOf(session) } : {}, ...headers }});

  const formKey = async(session: Session): Promise<string> => {
    const html = await (await page('web/home', session)).text();
    const key = /name="csrf" value="([^"]+)"/u.exec(html)?.[1];
    expect(key).toBeDefined();
    return key!;
  };

  const post = async(path: string, session: Session | undefined, fields: Record<string, string>, headers: Record<string, string> = {}):
  Promise<Response> => fetch(`${server.baseUrl}${path}`, { method: 'POST', redirect: 'manual', body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...session ? { cookie: cookieOf(session) } : {}, ...headers }});

  /** The texts of the user's home timeline, read through the Mastodon API with their token. */
  const homeTexts = async(session: Session): Promise<string[]> => {
    const response = await fetch(`${server.baseUrl}api/v1/timelines/home`, { headers: { authorization: `Bearer ${session.token}` }});
    expect(response.status).toBe(200);
    return (await response.json() as { content: string }[]).map((status): string => status.content);
  };

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub' });
    alice = await signup(server.baseUrl, 'alice');
    carol = await signup(server.baseUrl, 'carol');
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('shows a browser the front page at /, with the server\'s name, how to join and a CSP without inline script', async() => {
    const response = await page('');
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain('script-src \'self\'');
    expect(csp).not.toContain('unsafe-inline\'; script');
    expect(csp).toContain('frame-ancestors \'none\'');
    const html = await response.text();
    expect(html).toContain('<h1>Fedpod</h1>');
    expect(html).toContain('auth/signup');
    expect(html).toMatch(/2 people have an account here/u);
    // The root container's note form is gone: nobody anonymous may write there.
    expect(html).not.toContain('Add a note');
    expect(html).not.toContain('<script>');
  });

  it('still serves the root container to RDF clients at /', async() => {
    const response = await fetch(server.baseUrl, { headers: { accept: 'text/turtle' }});
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/turtle');
    expect(await response.text()).toContain('ldp:contains');
  });

  it('sends a logged-in reader from / to their home, and anybody else from home to the login', async() => {
    const front = await page('', alice);
    expect(front.status).toBe(303);
    expect(front.headers.get('location')).toBe(`${server.baseUrl}web/home`);
    const anonymous = await page('web/home');
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe(`${server.baseUrl}auth/login?next=web%2Fhome`);
    const home = await page('web/home', alice);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-security-policy')).toContain('script-src \'self\'');
    expect(home.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses a form without the session\'s form key, or with another session\'s, and posts nothing', async() => {
    const carolsKey = await formKey(carol);
    const forged: Record<string, string>[] = [{ status: 'forged one' }, { status: 'forged two', csrf: 'guess' }, { status: 'forged three', csrf: carolsKey }];
    for (const fields of forged) {
      const response = await post('web/statuses', alice, fields);
      expect(response.status).toBe(403);
      expect((await response.text())).toMatch(/invalid_form/u);
    }
    // Without any session, the key alone does nothing either.
    expect((await post('web/statuses', undefined, { status: 'forged four', csrf: carolsKey })).status).toBe(403);
    expect((await homeTexts(alice)).join(' ')).not.toMatch(/forged/u);
  });

  it('does not take the cookie from a request another origin made, even with the right form key', async() => {
    const key = await formKey(alice);
    const response = await post('web/statuses', alice, { status: 'from elsewhere', csrf: key }, { origin: 'http://localhost:1' });
    expect(response.status).toBe(403);
    const read = await page('web/home', alice, { origin: 'http://localhost:1', 'sec-fetch-site': 'same-site' });
    expect(read.status).toBe(303);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    expect((await homeTexts(alice)).join(' ')).not.toMatch(/from elsewhere/u);
  });

  /** How many files alice's media container holds. */
  const media = async(): Promise<number> => {
    const listing = await fetch(`${server.baseUrl}pods/alice/media/`, { headers: { accept: 'text/turtle', authorization: `Bearer ${alice.token}` }});
    return listing.status === 404 ? 0 : ((await listing.text()).match(/ldp:contains|<http:\/\/www\.w3\.org\/ns\/ldp#contains>/gu) ?? []).length;
  };

  it('refuses a compose form with a file but without the form key, and keeps no file', async() => {
    const before = await media();
    const form = new FormData();
    form.set('csrf', 'guess');
    form.set('status', 'forged with a file');
    const picture = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#cc3366' }}).png().toBuffer();
    form.set('file_1', new Blob([ new Uint8Array(picture) ], { type: 'image/png' }), 'x.png');
    const refused = await fetch(`${server.baseUrl}web/statuses`, { method: 'POST', redirect: 'manual', body: form, headers: { cookie: cookieOf(alice) }});
    expect(refused.status).toBe(403);
    expect(await media()).toBe(before);
    const anonymous = await fetch(`${server.baseUrl}web/statuses`, { method: 'POST', redirect: 'manual', body: form });
    expect(anonymous.status).toBe(403);
    expect(await media()).toBe(before);
  });

  it('posts with the form key, answering 303 back to the page', async() => {
    const key = await formKey(alice);
    const response = await post('web/statuses', alice, { status: 'Hello from the web app', spoiler_text: 'greeting', visibility: 'public',
      csrf: key, back: 'web/local' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`${server.baseUrl}web/local`);
    expect((await homeTexts(alice)).join(' ')).toContain('Hello from the web app');
    // The way back is a page of the app, never another site.
    for (const back of [ '//evil.example/web/', 'https://evil.example/', 'web//evil.example', '../auth/logout' ]) {
      const bookmarked = await post(`web/statuses/${encodeURIComponent('nothing-here')}/bookmark`, alice, { csrf: key, back });
      expect(bookmarked.status).toBe(404);
      const followed = await post('web/follow', alice, { csrf: key, back, handle: '@carol' });
      expect(followed.status).toBe(303);
      expect(followed.headers.get('location')).toBe(`${server.baseUrl}web/home`);
    }
    const local = await (await page('web/local')).text();
    expect(local).toContain('<summary>Content warning: greeting</summary>');
  });

  it('never counts the cookie alone as credentials for LDP, the outbox or the Mastodon API', async() => {
    const cookie = { cookie: cookieOf(alice) };
    const outbox = await fetch(`${alice.webId}/outbox`, { method: 'POST', headers: { ...cookie, 'content-type': 'application/activity+json' },
      body: JSON.stringify({ type: 'Note', content: 'cookie outbox', to: [ 'https://www.w3.org/ns/activitystreams#Public' ]}) });
    expect([ 401, 403 ]).toContain(outbox.status);
    const ldp = await fetch(`${server.baseUrl}pods/alice/cookie.txt`, { method: 'PUT', headers: { ...cookie, 'content-type': 'text/plain' },
      body: 'cookie write' });
    expect([ 401, 403 ]).toContain(ldp.status);
    const api = await fetch(`${server.baseUrl}api/v1/statuses`, { method: 'POST', headers: { ...cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'cookie api' }) });
    expect(api.status).toBe(401);
    expect((await fetch(`${server.baseUrl}pods/alice/cookie.txt`, { headers: { authorization: `Bearer ${alice.token}` }})).status).toBe(404);
    expect((await homeTexts(alice)).join(' ')).not.toMatch(/cookie (outbox|api)/u);
  });

  it('shows a followers-only post to nobody else on any page', async() => {
    const key = await formKey(alice);
    expect((await post('web/statuses', alice, { status: 'Only for my followers', visibility: 'private', csrf: key })).status).toBe(303);
    const [ id ] = await eventually(async() => {
      const response = await fetch(`${server.baseUrl}api/v1/timelines/home`, { headers: { authorization: `Bearer ${alice.token}` }});
      const found = (await response.json() as { id: string; content: string }[]).filter((status) => status.content.includes('Only for my followers'));
      return found.length > 0 && found.map((status) => status.id);
    });
    expect(await (await page('web/home', alice)).text()).toContain('Only for my followers');
    for (const path of [ '', 'web/local', 'web/federated', 'web/@alice', 'web/home', 'web/notifications' ]) {
      expect(await (await page(path, carol)).text()).not.toContain('Only for my followers');
      expect(await (await page(path)).text()).not.toContain('Only for my followers');
    }
    expect((await page(`web/statuses/${id}`, carol)).status).toBe(404);
    expect((await page(`web/statuses/${id}`)).status).toBe(404);
    expect((await page(`web/statuses/${id}`, alice)).status).toBe(200);
    // The profile itself is there, with alice's public post.
    const profile = await page('web/@alice', carol);
    expect(profile.status).toBe(200);
    expect(await profile.text()).toContain('Hello from the web app');
    expect((await page('web/@nobody')).status).toBe(404);
    expect((await page('web/nothing')).status).toBe(404);
  });

  /** The id of the user's newest status whose text has `text`, read through the API. */
  const statusIdOf = async(session: Session, text: string): Promise<string> => {
    const [ id ] = await eventually(async() => {
      const response = await fetch(`${server.baseUrl}api/v1/timelines/home`, { headers: { authorization: `Bearer ${session.token}` }});
      const found = (await response.json() as { id: string; content: string }[]).filter((status) => status.content.includes(text));
      return found.length > 0 && found.map((status) => status.id);
    });
    return id;
  };

  interface ApiStatus {
    content: string;
    spoiler_text: string;
    edited_at: string | null;
    account: { id: string };
    poll: { multiple: boolean; votes_count: number; options: { title: string }[] };
  }

  const statusOf = async(id: string, session: Session): Promise<{ status: number; body: ApiStatus }> => {
    const response = await fetch(`${server.baseUrl}api/v1/statuses/${id}`, { headers: { authorization: `Bearer ${session.token}` }});
    return { status: response.status, body: await response.json() as ApiStatus };
  };

  it('posts a poll from the compose form, and refuses one out of the API\'s limits', async() => {
    const key = await formKey(alice);
    const home = await (await page('web/home', alice)).text();
    expect(home).toContain('<legend>Poll (optional');
    expect(home).toContain('name="poll_option_4"');
    const posted = await post('web/statuses', alice, { status: 'Tea or coffee?', poll_option_1: 'Tea', poll_option_2: 'Coffee',
      poll_option_3: '', poll_expires_in: '3600', poll_multiple: 'true', csrf: key });
    expect(posted.status).toBe(303);
    const id = await statusIdOf(alice, 'Tea or coffee?');
    const { body } = await statusOf(id, alice);
    expect(body.poll.options.map((option: { title: string }) => option.title)).toEqual([ 'Tea', 'Coffee' ]);
    expect(body.poll.multiple).toBe(true);
    // One option only is no poll: refused, nothing posted.
    const single = await post('web/statuses', alice, { status: 'Only tea', poll_option_1: 'Tea', poll_expires_in: '3600', csrf: key });
    expect(single.status).toBe(422);
    expect((await homeTexts(alice)).join(' ')).not.toContain('Only tea');
  });

  it('lets another user vote once from the post\'s page, then shows the results; refuses a forged vote', async() => {
    const aliceKey = await formKey(alice);
    expect((await post('web/statuses', alice, { status: 'Which season?', poll_option_1: 'Summer', poll_option_2: 'Winter',
      poll_expires_in: '86400', csrf: aliceKey })).status).toBe(303);
    const id = await statusIdOf(alice, 'Which season?');
    // The author sees the results; a voter the form.
    expect(await (await page(`web/statuses/${id}`, alice)).text()).toContain('aria-label="Poll results"');
    const before = await (await page(`web/statuses/${id}`, carol)).text();
    expect(before).toContain(`web/statuses/${id}/vote`);
    expect(before).toContain('type="radio" name="choices" value="1"');
    const carolKey = await formKey(carol);
    // Without the form key, or with alice's, nothing is counted.
    expect((await post(`web/statuses/${id}/vote`, carol, { choices: '1' })).status).toBe(403);
    expect((await post(`web/statuses/${id}/vote`, carol, { choices: '1', csrf: aliceKey })).status).toBe(403);
    expect((await statusOf(id, alice)).body.poll.votes_count).toBe(0);
    const voted = await post(`web/statuses/${id}/vote`, carol, { choices: '1', csrf: carolKey });
    expect(voted.status).toBe(303);
    expect(voted.headers.get('location')).toBe(`${server.baseUrl}web/statuses/${id}`);
    // The vote is counted once the poll's author received it (the delivery queue).
    const after = await eventually(async() => {
      const html = await (await page(`web/statuses/${id}`, carol)).text();
      return html.includes('Winter: 1 (100%) (your vote)') && html;
    });
    expect(after).not.toContain(`web/statuses/${id}/vote`);
    // A second vote, or the author's own, is refused as the API refuses it.
    expect((await post(`web/statuses/${id}/vote`, carol, { choices: '0', csrf: carolKey })).status).toBe(422);
    expect((await post(`web/statuses/${id}/vote`, alice, { choices: '0', csrf: aliceKey })).status).toBe(422);
    expect((await statusOf(id, alice)).body.poll.votes_count).toBe(1);
  });

  it('lets nobody vote in a followers-only poll they cannot read', async() => {
    const key = await formKey(alice);
    expect((await post('web/statuses', alice, { status: 'Followers poll', visibility: 'private', poll_option_1: 'Yes', poll_option_2: 'No',
      poll_expires_in: '86400', csrf: key })).status).toBe(303);
    const id = await statusIdOf(alice, 'Followers poll');
    const stranger = await signup(server.baseUrl, 'dave');
    const daveKey = await formKey(stranger);
    expect((await post(`web/statuses/${id}/vote`, stranger, { choices: '0', csrf: daveKey })).status).toBe(404);
    expect((await statusOf(id, alice)).body.poll.votes_count).toBe(0);
  });

  it('edits the user\'s own post as the API does, shows it as edited, and lets nobody else edit it', async() => {
    const key = await formKey(alice);
    expect((await post('web/statuses', alice, { status: 'First draft', spoiler_text: 'draft', csrf: key })).status).toBe(303);
    const id = await statusIdOf(alice, 'First draft');
    const editPage = await page(`web/statuses/${id}/edit`, alice);
    expect(editPage.status).toBe(200);
    expect(editPage.headers.get('content-security-policy')).toContain('script-src \'self\'');
    const html = await editPage.text();
    expect(html).toContain('>First draft</textarea>');
    expect(html).toContain('value="draft"');
    // Anybody else: 404 for the page and the form, nothing changed; without a session: the login.
    expect((await page(`web/statuses/${id}/edit`, carol)).status).toBe(404);
    expect((await page(`web/statuses/${id}/edit`)).status).toBe(303);
    const carolKey = await formKey(carol);
    expect((await post(`web/statuses/${id}/edit`, carol, { status: 'Hijacked', csrf: carolKey })).status).toBe(404);
    expect((await post(`web/statuses/${id}/edit`, alice, { status: 'Forged edit' })).status).toBe(403);
    expect((await post(`web/statuses/${id}/edit`, alice, { status: 'Forged edit', csrf: carolKey })).status).toBe(403);
    expect((await statusOf(id, alice)).body.content).toContain('First draft');
    const saved = await post(`web/statuses/${id}/edit`, alice, { status: 'Final text', spoiler_text: '', csrf: key });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(`${server.baseUrl}web/statuses/${id}`);
    const { body } = await statusOf(id, alice);
    expect(body.content).toContain('Final text');
    expect(body.spoiler_text).toBe('');
    expect(body.edited_at).toBeTruthy();
    const thread = await (await page(`web/statuses/${id}`, alice)).text();
    expect(thread).toContain('class="edited">edited');
    expect(thread).toContain(`web/statuses/${id}/edit`);
    // The Update reached the author's outbox: the edit history has both texts.
    const history = await (await fetch(`${server.baseUrl}api/v1/statuses/${id}/history`, { headers: { authorization: `Bearer ${alice.token}` }}))
      .json() as { content: string }[];
    expect(history.map((edit) => edit.content).join(' ')).toMatch(/First draft.*Final text/su);
  });

  it('files a report about a post through the reports service, and refuses a forged one', async() => {
    const key = await formKey(alice);
    expect((await post('web/statuses', alice, { status: 'Buy cheap things', csrf: key })).status).toBe(303);
    const id = await statusIdOf(alice, 'Buy cheap things');
    const aliceAccount = (await statusOf(id, alice)).body.account.id;
    expect(await (await page(`web/statuses/${id}`, carol)).text()).toContain(`web/report?account_id=${aliceAccount}&amp;status_id=${id}`);
    expect(await (await page('web/@alice', carol)).text()).toContain(`web/report?account_id=${aliceAccount}"`);
    const form = await page(`web/report?account_id=${aliceAccount}&status_id=${id}`, carol);
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(html).toContain('name="category" value="spam"');
    // A local account: no copy to another server is offered.
    expect(html).not.toContain('name="forward"');
    const reports = async(session: Session): Promise<{ comment: string; category: string; status_ids: string[] }[]> =>
      (await fetch(`${server.baseUrl}api/v1/reports`, { headers: { authorization: `Bearer ${session.token}` }})).json() as
      Promise<{ comment: string; category: string; status_ids: string[] }[]>;
    const carolKey = await formKey(carol);
    expect((await post('web/reports', carol, { account_id: aliceAccount, status_id: id, category: 'spam', comment: 'forged' })).status).toBe(403);
    expect((await post('web/reports', carol, { account_id: aliceAccount, category: 'spam', comment: 'bad', csrf: carolKey, status_id: 'nothing' }))
      .status).toBe(404);
    expect(await reports(carol)).toHaveLength(0);
    const sent = await post('web/reports', carol, { account_id: aliceAccount, status_id: id, category: 'spam', comment: 'Selling things',
      csrf: carolKey });
    expect(sent.status).toBe(303);
    const confirmation = sent.headers.get('location')!;
    expect(confirmation).toBe(`${server.baseUrl}web/report?account_id=${aliceAccount}&sent=1`);
    expect(await (await fetch(confirmation, { headers: { cookie: cookieOf(carol), accept: HTML }})).text()).toContain('Report sent');
    const filed = await reports(carol);
    expect(filed).toHaveLength(1);
    expect(filed[0]).toMatchObject({ comment: 'Selling things', category: 'spam', status_ids: [ id ]});
    // A category the service does not know is bad input, and nobody reports themselves.
    expect((await post('web/reports', carol, { account_id: aliceAccount, category: 'boring', csrf: carolKey })).status).toBe(400);
    expect((await post('web/reports', alice, { account_id: aliceAccount, category: 'spam', csrf: key })).status).toBe(400);
    expect(await reports(carol)).toHaveLength(1);
  });

  it('posts up to four attachments with their descriptions and focal points, and keeps none of a form with a bad one', async() => {
    const home = await (await page('web/home', alice)).text();
    expect(home).toContain('name="file_4"');
    expect(home).not.toContain('name="file_5"');
    expect(home).toContain('name="focus_x_1" type="number" min="-1" max="1"');
    const key = await formKey(alice);
    const picture = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#3366cc' }}).png().toBuffer();
    const compose = (fields: Record<string, string>): FormData => {
      const form = new FormData();
      form.set('csrf', key);
      form.set('back', 'web/home');
      form.set('file_1', new Blob([ new Uint8Array(picture) ], { type: 'image/png' }), 'blue.png');
      form.set('file_2', new Blob([ new Uint8Array(wavTone()) ], { type: 'audio/wav' }), 'beep.wav');
      for (const [ name, value ] of Object.entries(fields)) {
        form.set(name, value);
      }
      return form;
    };
    const send = async(form: FormData): Promise<Response> => fetch(`${server.baseUrl}web/statuses`, { method: 'POST', redirect: 'manual', body: form,
      headers: { cookie: cookieOf(alice) }});

    // A focal point out of -1..1: 422 as the API's, and neither file stays.
    const before = await media();
    const refused = await send(compose({ status: 'Bad focus', focus_x_1: '2', focus_y_1: '0' }));
    expect(refused.status).toBe(422);
    expect(await media()).toBe(before);
    expect((await homeTexts(alice)).join(' ')).not.toContain('Bad focus');

    const posted = await send(compose({ status: 'A picture and a sound', description_1: 'A blue rectangle', focus_x_1: '-0.5', focus_y_1: '0.25',
      description_2: 'A short beep', sensitive: 'true' }));
    expect(posted.status).toBe(303);
    const timeline = await (await fetch(`${server.baseUrl}api/v1/timelines/home`, { headers: { authorization: `Bearer ${alice.token}` }})).json() as
      { content: string; sensitive: boolean; media_attachments: { type: string; description: string; meta: { focus?: { x: number; y: number } } }[] }[];
    const status = timeline.find((item): boolean => item.content.includes('A picture and a sound'));
    // Sensitive, though its image's focal point (an RDF list) makes the stored object come back with typed literals.
    expect(status?.sensitive).toBe(true);
    expect(status?.media_attachments.map((item) => [ item.type, item.description, item.meta.focus ])).toEqual([
      [ 'image', 'A blue rectangle', { x: -0.5, y: 0.25 } ], [ 'audio', 'A short beep', undefined ] ]);
    // The page: the picture cut to its focal point, the sound with the browser's controls and its description as text.
    const html = await (await page('web/home', alice)).text();
    expect(html).toContain('style="object-position: 25% 37.5%"');
    expect(html).toMatch(/<audio controls preload="none" src="[^"]+\.wav" aria-label="A short beep">/u);
    expect(html).toContain('<figcaption>Description: A short beep</figcaption>');
  });

  it('shows the login and signup pages in the app\'s layout, with its navigation and its Content-Security-Policy', async() => {
    for (const [ path, current ] of [[ 'auth/login', 'Log in' ], [ 'auth/signup', 'Sign up' ]]) {
      const response = await page(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toContain('script-src \'self\'');
      expect(response.headers.get('content-security-policy')).toContain('frame-ancestors \'none\'');
      const html = await response.text();
      expect(html).toContain('<nav class="app" aria-label="Main">');
      expect(html).toContain(`aria-current="page">${current}</a>`);
      expect(html).toContain(`<form method="post" action="${server.baseUrl}${path}">`);
    }
  });

  it('answers live updates only to a session', async() => {
    expect((await fetch(`${server.baseUrl}web/live`)).status).toBe(401);
    const controller = new AbortController();
    const live = await fetch(`${server.baseUrl}web/live`, { headers: { cookie: cookieOf(alice) }, signal: controller.signal });
    expect(live.status).toBe(200);
    expect(live.headers.get('content-type')).toContain('text/event-stream');
    await live.body?.cancel();
    controller.abort();
  });
});
