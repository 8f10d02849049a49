/**
 * The web app between two Fedpod instances (A and B, on loopback with --allow-private-network), in a
 * real headless Chromium: a user of A follows a user of B by handle from the home page, and B's
 * next post arrives on that home page without a reload; she replies from the app and the reply
 * reaches B (B's user is notified of it); B's user's profile on A shows his recent posts, read from
 * his outbox on B.
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
    // Before anyone on A follows bob: this post never reaches A but through his outbox.
    expect((await postToOutbox(bob, { type: 'Note', to: [ AS_PUBLIC ], cc: [ `${bob.webId}/followers` ],
      content: '<p>Written before anyone followed</p>' })).status).toBe(201);
    await page.goto(`${a.baseUrl}auth/login?next=web/home`);
    await page.type('#username', 'alice');
    await page.type('#password', 'correct horse');
    await submit('main form button[type="submit"]');
    expect(page.url()).toBe(`${a.baseUrl}web/home`);

    await page.type('#handle', `@bob@${new URL(b.baseUrl).host}`);
    await submit('form.follow button[type="submit"]');
    expect(page.url()).toBe(`${a.baseUrl}web/home`);
    // B accepted, and A took the Accept: bob is in alice's following, so A lists his posts for her.
    await eventually(async() => (await pageItemIds(`${alice.webId}/following`)).includes(bob.webId), 60_000);

    // The home page stays open; bob posts on B.
    await page.evaluate((): void => {
      (window as unknown as { loadedOnce: boolean }).loadedOnce = true;
    });
    const posted = await postToOutbox(bob, { type: 'Note', to: [ AS_PUBLIC ], cc: [ `${bob.webId}/followers` ],
      content: '<p>Greetings from the other server</p>' });
    expect(posted.status).toBe(201);
    // The delivery from B may wait for a retry on a busy machine: first until it reached alice on A
    // (her home timeline through the API), then the open page must show it without a reload.
    await eventually(async() => {
      const home = await fetch(`${a.baseUrl}api/v1/timelines/home`, { headers: { authorization: `Bearer ${alice.token}` }});
      return JSON.stringify(await home.json()).includes('Greetings from the other server');
    }, 240_000);
    await page.waitForFunction((): boolean =>
      (document.querySelector('[data-live="home"]')?.textContent ?? '').includes('Greetings from the other server'), { timeout: 60_000 });
    expect(await page.evaluate((): boolean => (window as unknown as { loadedOnce?: boolean }).loadedOnce === true)).toBe(true);
    await keepScreenshot(page, 'webapp-federation-home');

    // Alice replies from the app, on the post that arrived live.
    await submit('[data-live="home"] article.status a[href*="web/compose?in_reply_to_id="]');
    expect(await page.$eval('#status', (field): string => (field as HTMLTextAreaElement).value)).toBe(`@bob@${new URL(b.baseUrl).host} `);
    await page.type('#status', 'Greetings back from A');
    await submit('form.compose button[type="submit"]');
    // On B, bob is notified of the reply, through B's Mastodon API.
    const mention = await eventually(async() => {
      const response = await fetch(`${b.baseUrl}api/v1/notifications`, { headers: { authorization: `Bearer ${bob.token}` }});
      const notifications = await response.json() as { type: string; account: { acct: string }; status?: { content: string; in_reply_to_id: string | null } }[];
      return notifications.find((notification): boolean => notification.type === 'mention' &&
        (notification.status?.content ?? '').includes('Greetings back from A'));
    }, 90_000);
    expect(mention.account.acct).toBe(`alice@${new URL(a.baseUrl).host}`);
    expect(mention.status?.in_reply_to_id).not.toBeNull();

    // Bob's profile in the app: followed, his recent posts read from his outbox on B, a link to his server for the rest.
    await page.goto(`${a.baseUrl}web/@bob@${new URL(b.baseUrl).host}`);
    const text = await page.$eval('main', (main): string => main.textContent ?? '');
    expect(text).toContain('Unfollow');
    expect(text).toContain(`@bob@${new URL(b.baseUrl).host}`);
    const posts = await page.$eval('section[aria-label="Posts"]', (section): string => section.textContent ?? '');
    expect(posts).toContain('Greetings from the other server');
    expect(posts).toContain('Written before anyone followed');
    await keepScreenshot(page, 'webapp-federation-remote-profile');
  }, 300_000);
});
