/**
 * The web app's lists, filters and search pages in a real headless Chromium, as people use them:
 * a list made, filled with someone followed and read; a keyword filter made, its posts folded on the
 * local timeline; a search that leads to a profile; a new post arriving live on the local timeline.
 * A third user never sees another's list. Every new page is checked with axe-core (no serious or
 * critical violation) at a desktop's and a phone's width; screenshots are kept in the run directory.
 */
import type { Browser, Page } from 'puppeteer-core';
import { checkPageAccessibility, DESKTOP_VIEWPORT, keepScreenshot, launchBrowser } from '../../support/browser';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { signup, type Session } from '../../support/local-actors';

describe('the web app\'s lists, filters and search in a browser', () => {
  let server: FedpodServer;
  let browser: Browser;
  let bob: Session;
  const pages: Page[] = [];

  const go = async(page: Page, path: string): Promise<number | undefined> =>
    (await page.goto(`${server.baseUrl}${path}`, { waitUntil: 'load' }))?.status();

  const submit = async(page: Page, selector: string): Promise<void> => {
    await Promise.all([ page.waitForNavigation({ waitUntil: 'load' }), page.click(selector) ]);
  };

  const logIn = async(username: string): Promise<Page> => {
    const page = await (await browser.createBrowserContext()).newPage();
    await page.setViewport(DESKTOP_VIEWPORT);
    pages.push(page);
    await go(page, 'auth/login?next=web/home');
    await page.type('#username', username);
    await page.type('#password', 'correct horse');
    await submit(page, 'main form button[type="submit"]');
    expect(page.url()).toBe(`${server.baseUrl}web/home`);
    return page;
  };

  const checkPage = async(page: Page, name: string): Promise<void> => {
    const { violations, phoneOverflow } = await checkPageAccessibility(page, `webapp-${name}`);
    expect(violations).toEqual([]);
    expect(phoneOverflow).toBe(0);
  };

  const mainText = async(page: Page): Promise<string> => page.$eval('main', (main): string => main.textContent ?? '');

  const postAsBob = async(status: string): Promise<void> => {
    const response = await fetch(`${server.baseUrl}api/v1/statuses`, { method: 'POST',
      headers: { authorization: `Bearer ${bob.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ status, visibility: 'public' }) });
    expect(response.status).toBe(200);
  };

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub' });
    await signup(server.baseUrl, 'alice');
    bob = await signup(server.baseUrl, 'bob');
    await signup(server.baseUrl, 'carol');
    browser = await launchBrowser();
  }, 240_000);

  afterAll(async() => {
    for (const page of pages) {
      await page.browserContext().close().catch((): void => undefined);
    }
    await browser?.close();
    await server?.stop();
  });

  it('makes a list of people followed and reads it; another user gets 404 for it', async() => {
    const alice = await logIn('alice');
    await alice.type('#handle', '@bob');
    await submit(alice, 'form.follow button[type="submit"]');
    await postAsBob('Bob on the list');

    await go(alice, 'web/lists');
    expect(await alice.$eval('nav a[aria-current="page"]', (link): string => link.textContent ?? '')).toBe('Lists');
    await checkPage(alice, 'lists');
    await alice.type('#title', 'Friends');
    await submit(alice, 'form.list button[type="submit"]');
    const listUrl = alice.url();
    expect(listUrl).toMatch(/\/web\/lists\/[\w-]+$/u);
    await alice.select('#account_id', (await alice.$eval('#account_id option', (option): string => (option as HTMLOptionElement).value)));
    await submit(alice, 'form.list-add button[type="submit"]');
    expect(await alice.$eval('ul.members', (list): string => list.textContent ?? '')).toContain('@bob');
    expect(await mainText(alice)).toContain('Bob on the list');
    await checkPage(alice, 'list');

    const carol = await logIn('carol');
    expect(await go(carol, listUrl.slice(server.baseUrl.length))).toBe(404);
    await go(carol, 'web/lists');
    expect(await mainText(carol)).not.toContain('Friends');
  }, 180_000);

  it('makes a keyword filter whose posts are folded on the local timeline, which shows new posts live', async() => {
    const alice = pages[0];
    await go(alice, 'web/filters');
    await checkPage(alice, 'filters');
    await alice.type('#title', 'Dragons');
    await alice.type('#keyword_0', 'dragon');
    await submit(alice, 'form.filter button[type="submit"]');
    expect(alice.url()).toMatch(/\/web\/filters\/[\w-]+$/u);
    expect(await alice.$eval('#keyword_0', (input): string => (input as HTMLInputElement).value)).toBe('dragon');
    await checkPage(alice, 'filter');

    await postAsBob('Here be a dragon');
    await go(alice, 'web/local');
    const summary = await alice.$eval('details.filtered summary', (element): string => element.textContent ?? '');
    expect(summary).toBe('Filtered: Dragons');
    expect(await alice.$eval('details.filtered', (element): boolean => (element as HTMLDetailsElement).open)).toBe(false);

    // The local timeline stays open; bob's next post arrives without a reload.
    await alice.evaluate((): void => {
      (window as unknown as { loadedOnce: boolean }).loadedOnce = true;
    });
    await postAsBob('Live on the local timeline');
    await alice.waitForFunction((): boolean =>
      (document.querySelector('[data-live="public:local"]')?.textContent ?? '').includes('Live on the local timeline'), { timeout: 60_000 });
    expect(await alice.evaluate((): boolean => (window as unknown as { loadedOnce?: boolean }).loadedOnce === true)).toBe(true);
    await keepScreenshot(alice, 'webapp-local-live');
  }, 180_000);

  it('searches for a handle and leads to the profile', async() => {
    const alice = pages[0];
    await go(alice, 'web/search');
    await checkPage(alice, 'search');
    await alice.type('#q', '@bob');
    await submit(alice, 'form.search button[type="submit"]');
    expect(await mainText(alice)).toContain('People');
    await checkPage(alice, 'search-results');
    await submit(alice, `main section a[href="${server.baseUrl}web/@bob"]`);
    expect(alice.url()).toBe(`${server.baseUrl}web/@bob`);
    expect(await mainText(alice)).toContain('Here be a dragon');
  }, 120_000);
});
