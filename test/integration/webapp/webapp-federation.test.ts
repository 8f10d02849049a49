/**
 * The web app between two Fedpod instances (A and B, on loopback with --allow-private-network), in a
 * real headless Chromium: a user of A follows a user of B by handle from the home page, and B's
 * next post arrives on that home page without a reload.
 */
import type { Browser, Page } from 'puppeteer-core';
import { keepScreenshot, launchBrowser } from '../../support/browser';
import { eventually } from '../../support/eventually';
import { startAll, startFedpod, type FedpodServer } from '../../support/fedpod';
import { pageItemIds, postToOutbox, signup, type Session } from '../../support/local-actors';

const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

describe('the web app between two instances', () => {
  let a: FedpodServer;
  let b: FedpodServer;
  let bob: Session;
  let alice: Session;
  let browser: Browser;
  let page: Page;

  const submit = async(selector: string): Promise<void> => {
    await Promise.all([ page.waitForNavigation({ waitUntil: 'load' }), page.click(selector) ]);
  };

  beforeAll(async() => {
    await startAll([ startFedpod({ config: 'activitypub', allowPrivateNetwork: true }),
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true }) ], (servers) => {
      [ a, b ] = servers as FedpodServer[];
    });
    alice = await signup(a.baseUrl, 'alice');
    bob = await signup(b.baseUrl, 'bob');
    browser = await launchBrowser();
    page = await (await browser.createBrowserContext()).newPage();
  }, 240_000);

  afterAll(async() => {
    await browser?.close();
    await a?.stop();
    await b?.stop();
  });

  it('follows a remote user by handle and shows their new post on the home page as it arrives', async() => {
    await page.goto(`${a.baseUrl}auth/login?next=web/home`);
    await page.type('#username', 'alice');
    await page.type('#password', 'correct horse');
    await submit('main form button[type="submit"]');
    expect(page.url()).toBe(`${a.baseUrl}web/home`);

    await page.type('#handle', `@bob@${new URL(b.baseUrl).host}`);
    await submit('form.follow button[type="submit"]');
    expect(page.url()).toBe(`${a.baseUrl}web/home`);
    // B accepted: alice is among bob's followers there.
    await eventually(async() => (await pageItemIds(`${bob.webId}/followers`)).includes(alice.webId), 60_000);

    // The home page stays open; bob posts on B.
    await page.evaluate((): void => {
      (window as unknown as { loadedOnce: boolean }).loadedOnce = true;
    });
    const posted = await postToOutbox(bob, { type: 'Note', to: [ AS_PUBLIC ], cc: [ `${bob.webId}/followers` ],
      content: '<p>Greetings from the other server</p>' });
    expect(posted.status).toBe(201);
    await page.waitForFunction((): boolean =>
      (document.querySelector('[data-live="home"]')?.textContent ?? '').includes('Greetings from the other server'), { timeout: 90_000 });
    expect(await page.evaluate((): boolean => (window as unknown as { loadedOnce?: boolean }).loadedOnce === true)).toBe(true);
    await keepScreenshot(page, 'webapp-federation-home');

    // Bob's profile in the app: followed, with a link to his server for his posts.
    await page.goto(`${a.baseUrl}web/@bob@${new URL(b.baseUrl).host}`);
    const text = await page.$eval('main', (main): string => main.textContent ?? '');
    expect(text).toContain('Unfollow');
    expect(text).toContain(`@bob@${new URL(b.baseUrl).host}`);
  }, 300_000);
});
