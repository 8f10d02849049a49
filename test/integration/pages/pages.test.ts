/**
 * Pages for people: a real headless Chromium loads a profile, a post and an error, at the same URLs
 * ActivityPub clients read as JSON. Screenshots are kept in the run directory.
 */
import type { Browser, Page } from 'puppeteer-core';
import { keepScreenshot, launchBrowser } from '../../support/browser';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { eventually } from '../../support/eventually';
import { pageItemIds, postToOutbox, signup, type Session } from '../../support/local-actors';

const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

describe('pages in a browser', () => {
  let server: FedpodServer;
  let browser: Browser;
  let page: Page;
  let alice: Session;
  let bob: Session;
  let publicNote: string;
  let privateNote: string;

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub' });
    alice = await signup(server.baseUrl, 'alice');
    bob = await signup(server.baseUrl, 'bob');
    await postToOutbox(alice, { type: 'Update', object: { id: alice.webId, name: 'Alice Liddell', summary: '<p>Down the <em>rabbit</em> hole</p>' }});
    const note = await postToOutbox(alice, { type: 'Note', to: [ PUBLIC ], summary: 'spoilers',
      content: '<p>Hello <b>world</b><script>window.injected = true</script><img src=x onerror="window.injected = true"></p>' });
    publicNote = (note.body.object as { id: string }).id;
    const secret = await postToOutbox(alice, { type: 'Note', to: [ bob.webId ], content: '<p>only for bob</p>' });
    privateNote = (secret.body.object as { id: string }).id;
    await postToOutbox(bob, { type: 'Follow', object: alice.webId });
    await eventually(async() => (await pageItemIds(`${alice.webId}/followers`)).includes(bob.webId));
    browser = await launchBrowser();
  });

  beforeEach(async() => {
    page = await browser.newPage();
  });

  afterEach(async() => {
    await page?.close();
  });

  afterAll(async() => {
    await browser?.close();
    await server?.stop();
  });

  it('shows a profile with name, handle, summary, counts and the public posts only', async() => {
    const answer = await page.goto(alice.webId);
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()['content-type']).toMatch(/^text\/html/u);
    await keepScreenshot(page, 'profile');
    expect(await page.title()).toContain('Alice Liddell');
    expect(await page.$eval('h1', (element) => element.textContent)).toBe('Alice Liddell');
    const text = await page.$eval('main', (element) => (element as HTMLElement).innerText);
    expect(text).toContain(`@alice@${new URL(server.baseUrl).host}`);
    expect(text).toContain('Down the rabbit hole');
    // The outbox holds the Note and the profile Update: both are public.
    expect(text).toMatch(/2\s*activities/u);
    expect(await page.$eval('header', (element) => element.textContent)).toContain('Fedpod');
    // The content warning hides the post until opened; the private post is not there at all.
    expect(await page.$$eval('details summary', (elements) => elements.map((element) => element.textContent))).toEqual([ 'spoilers' ]);
    expect(text).not.toContain('only for bob');
    expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
  });

  it('shows a post with its author, content made safe, and a link to the author', async() => {
    const answer = await page.goto(publicNote);
    expect(answer?.status()).toBe(200);
    await page.click('details summary');
    await keepScreenshot(page, 'post');
    expect(await page.$eval('article', (element) => (element as HTMLElement).innerText)).toContain('Hello world');
    expect(await page.$$('article script')).toHaveLength(0);
    expect(await page.$$('article img')).toHaveLength(0);
    expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
    await Promise.all([ page.waitForNavigation(), page.click('.author a') ]);
    expect(page.url()).toBe(alice.webId);
  });

  it('shows collections as pages: the public posts of the outbox, the followers as links', async() => {
    expect((await page.goto(`${alice.webId}/outbox`))?.status()).toBe(200);
    await keepScreenshot(page, 'outbox');
    expect(await page.$eval('h1', (element) => element.textContent)).toBe('Posts');
    expect(await page.$$eval('details summary', (elements) => elements.map((element) => element.textContent))).toEqual([ 'spoilers' ]);
    expect(await page.content()).not.toContain('only for bob');
    expect((await page.goto(`${alice.webId}/followers`))?.status()).toBe(200);
    expect(await page.$$eval('main li a', (links) => links.map((link) => link.getAttribute('href')))).toEqual([ bob.webId ]);
  });

  it('shows the audience rules: a post addressed to bob is a 404 page to others', async() => {
    const answer = await page.goto(privateNote);
    expect(answer?.status()).toBe(404);
    await keepScreenshot(page, 'not-found');
    expect(await page.$eval('header', (element) => element.textContent)).toContain('Fedpod');
    expect(await page.content()).not.toContain('only for bob');
  });

  it('signs up, logs in and out, and creates, uses and revokes a webhook on the account page', async() => {
    await page.goto(`${server.baseUrl}auth/signup`);
    await keepScreenshot(page, 'signup');
    await page.type('#username', 'carol');
    await page.type('#email', 'carol@example.com');
    await page.type('#password', 'short');
    // The browser's own check (minlength) keeps a short password from being sent; the server refuses it too.
    await page.$eval('#password', (input) => input.removeAttribute('minlength'));
    await Promise.all([ page.waitForNavigation(), page.click('button[type=submit]') ]);
    expect(await page.$eval('.error', (element) => element.textContent)).toMatch(/password/iu);
    expect(await page.$eval('#username', (input) => (input as HTMLInputElement).value)).toBe('carol');
    await page.$eval('#password', (input) => {
      (input as HTMLInputElement).value = '';
    });
    await page.type('#password', 'correct horse');
    await Promise.all([ page.waitForNavigation(), page.click('button[type=submit]') ]);
    expect(page.url()).toBe(`${server.baseUrl}auth/account`);
    expect(await page.$eval('main', (element) => (element as HTMLElement).innerText)).toContain('@carol');
    const cookie = (await page.cookies()).find((entry) => entry.name === 'fedpod_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/auth/' });

    await page.select('#action', 'store-in-container');
    await Promise.all([ page.waitForNavigation(), page.click('form:not(.inline) button[type=submit]') ]);
    await keepScreenshot(page, 'account');
    const uri = await page.$eval('.webhook-uri', (element) => element.textContent ?? '');
    expect(uri).toMatch(new RegExp(`^${server.baseUrl}webhooks/[A-Za-z0-9_-]{43}$`, 'u'));
    expect((await fetch(uri, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"from":"page"}' })).status)
      .toBe(202);
    expect(await page.$$('ul.webhooks li')).toHaveLength(1);
    // The page is the user's own: a form without the page's key is refused.
    const forged = await page.evaluate(async(target) => (await fetch(target, { method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: 'do=generate&action=store-in-container' })).status,
    `${server.baseUrl}auth/account`);
    expect(forged).toBe(403);
    await Promise.all([ page.waitForNavigation(), page.click('form.inline button') ]);
    expect(await page.$$('ul.webhooks li')).toHaveLength(0);
    expect((await fetch(uri, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(404);

    await Promise.all([ page.waitForNavigation(), page.click('form[action$="auth/logout"] button') ]);
    expect(page.url()).toBe(`${server.baseUrl}auth/login`);
    expect((await page.goto(`${server.baseUrl}auth/account`))?.url()).toBe(`${server.baseUrl}auth/login`);
    await page.type('#username', 'carol');
    await page.type('#password', 'wrong password');
    await Promise.all([ page.waitForNavigation(), page.click('button[type=submit]') ]);
    expect(await page.$eval('.error', (element) => element.textContent)).toBeTruthy();
    await page.$eval('#password', (input) => {
      (input as HTMLInputElement).value = '';
    });
    await page.type('#password', 'correct horse');
    await Promise.all([ page.waitForNavigation(), page.click('button[type=submit]') ]);
    expect(page.url()).toBe(`${server.baseUrl}auth/account`);
    // The JSON API answers as before.
    const api = await fetch(`${server.baseUrl}auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'carol', password: 'correct horse' }) });
    expect((await api.json() as { webId: string }).webId).toBe(`${server.baseUrl}actors/carol`);
  });

  describe('an LDP container', () => {
    let ldp: FedpodServer;

    beforeAll(async() => {
      ldp = await startFedpod({ config: 'ldp', extraArgs: [ '--container-page-size', '2' ] });
    });

    afterAll(async() => {
      await ldp?.stop();
    });

    it('lists its members with links and takes a note from its form, stored as the JSON-LD note it stands for', async() => {
      const notes = `${ldp.baseUrl}notes/`;
      expect((await page.goto(notes))?.status()).toBe(200);
      expect(await page.$eval('header', (element) => element.textContent)).toContain('Fedpod');
      expect(await page.$eval('main', (element) => (element as HTMLElement).innerText)).toContain('Empty.');
      await page.type('#note-name', 'Groceries');
      await page.type('#note-content', 'milk <b>and</b> bread');
      await Promise.all([ page.waitForNavigation(), page.click('form button[type=submit]') ]);
      expect(page.url()).toBe(notes);
      await keepScreenshot(page, 'container');
      const links = await page.$$eval('ul.members a', (anchors) => anchors.map((anchor) => anchor.getAttribute('href')));
      expect(links).toHaveLength(1);
      const stored = await (await fetch(links[0]!, { headers: { accept: 'application/ld+json' } })).json() as Record<string, unknown>;
      expect(JSON.stringify(stored)).toContain('milk <b>and</b> bread');
      expect(JSON.stringify(stored)).toContain('Groceries');
      // A form body from anyone but a browser on that page stays what LDP makes of any body: a file.
      const file = await fetch(notes, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'fedpod-form=note&content=raw' });
      expect(file.status).toBe(201);
      expect(await (await fetch(file.headers.get('location')!)).text()).toBe('fedpod-form=note&content=raw');
    });

    it('shows a page of members at a time, with a link to the next page', async() => {
      const made = await fetch(`${ldp.baseUrl}notes/`, { method: 'POST', headers: { 'content-type': 'text/turtle', slug: 'shelf',
        link: '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"' }, body: '' });
      expect(made.status).toBe(201);
      const shelf = made.headers.get('location')!;
      for (const slug of [ 'first', 'second', 'third' ]) {
        const created = await fetch(shelf, { method: 'POST', headers: { 'content-type': 'text/plain', slug }, body: slug });
        expect(created.status).toBe(201);
      }
      expect((await page.goto(shelf))?.status()).toBe(200);
      const names = async(): Promise<string[]> => page.$$eval('ul.members a', (anchors) => anchors.map((anchor) => anchor.textContent ?? ''));
      expect(await names()).toEqual([ 'third', 'second' ]);
      expect(await page.$eval('nav', (element) => element.textContent)).toMatch(/notes.*shelf/u);
      await Promise.all([ page.waitForNavigation(), page.click('a[rel=next]') ]);
      expect(await names()).toEqual([ 'first' ]);
      expect(await page.$('a[rel=next]')).toBeNull();
      const forged = await page.goto(`${shelf}?after=nonsense`);
      expect(forged?.status()).toBe(400);
      expect(forged?.headers()['content-type']).toMatch(/^text\/html/u);
    });
  });

  it('keeps JSON for ActivityPub clients and Turtle for RDF clients at the same URLs', async() => {
    const actor = await fetch(alice.webId, { headers: { accept: 'application/activity+json' } });
    expect(actor.headers.get('content-type')).toMatch(/^application\/activity\+json/u);
    expect((await actor.json() as { type: string }).type).toBe('Person');
    const mastodon = await fetch(publicNote, { headers: { accept: 'application/activity+json, application/ld+json' } });
    expect((await mastodon.json() as { type: string }).type).toBe('Note');
    const turtle = await fetch(alice.webId, { headers: { accept: 'text/turtle' } });
    expect(turtle.headers.get('content-type')).toMatch(/^text\/turtle/u);
  });

  it('answers a browser\'s error as a page with the same status, and a client\'s as JSON', async() => {
    const answer = await page.goto(`${server.baseUrl}actors/nobody`);
    expect(answer?.status()).toBe(404);
    expect(answer?.headers()['content-type']).toMatch(/^text\/html/u);
    expect(await page.$eval('header', (element) => element.textContent)).toContain('Fedpod');
    const json = await fetch(`${server.baseUrl}actors/nobody`, { headers: { accept: 'application/activity+json' } });
    expect(json.status).toBe(404);
    expect(await json.json()).toEqual({ error: expect.any(String), message: expect.stringMatching(/.+/u) });
  });
});
