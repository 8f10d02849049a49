/**
 * The web app in a real headless Chromium, as people use it: sign up from the front page, post
 * behind a content warning, see it at home; a second user follows by handle, likes and replies, and
 * the first sees the notifications arrive without a reload; a stranger never sees a followers-only
 * post; a poll is composed, voted in by another user, its post edited and reported. Every main page
 * is checked with axe-core (no serious or critical violation) at a desktop and a phone's width; screenshots are kept in the run directory.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, ElementHandle, Page } from 'puppeteer-core';
import { checkPageAccessibility, DESKTOP_VIEWPORT as DESKTOP, keepScreenshot, launchBrowser } from '../../support/browser';
import { eventually } from '../../support/eventually';
import { wavTone } from '../../support/sample-media';
import { startFedpod, type FedpodServer } from '../../support/fedpod';

describe('the web app in a browser', () => {
  let server: FedpodServer;
  let browser: Browser;
  const pages: Page[] = [];

  /** A new browser session (an incognito context: its own cookies). */
  const newSession = async(): Promise<Page> => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport(DESKTOP);
    pages.push(page);
    return page;
  };

  const go = async(page: Page, path: string): Promise<void> => {
    await page.goto(`${server.baseUrl}${path}`, { waitUntil: 'load' });
  };

  const submit = async(page: Page, selector: string): Promise<void> => {
    await Promise.all([ page.waitForNavigation({ waitUntil: 'load' }), page.click(selector) ]);
  };

  const signUp = async(page: Page, username: string): Promise<void> => {
    await go(page, '');
    await submit(page, 'main a[href$="auth/signup?next=web/home"]');
    await page.type('#username', username);
    await page.type('#email', `${username}@example.com`);
    await page.type('#password', 'correct horse');
    await submit(page, 'main form button[type="submit"]');
    expect(page.url()).toBe(`${server.baseUrl}web/home`);
  };

  const logIn = async(page: Page, username: string): Promise<void> => {
    await go(page, 'auth/login?next=web/home');
    await page.type('#username', username);
    await page.type('#password', 'correct horse');
    await submit(page, 'main form button[type="submit"]');
    expect(page.url()).toBe(`${server.baseUrl}web/home`);
  };

  const compose = async(page: Page, text: string, options: { warning?: string; visibility?: string } = {}): Promise<void> => {
    await page.type('#status', text);
    if (options.warning) {
      await page.type('#spoiler_text', options.warning);
    }
    if (options.visibility) {
      await page.select('#visibility', options.visibility);
    }
    await submit(page, 'form.compose button[type="submit"]');
  };

  const mainText = async(page: Page): Promise<string> => page.$eval('main', (main): string => main.textContent ?? '');

  /** Loads the page again until its main part has `text` (what another user's action changes arrives through the queues). */
  const eventuallyOnPage = async(page: Page, url: string, text: string): Promise<void> => {
    for (let attempt = 0; attempt < 60 && !(await mainText(page)).includes(text); attempt++) {
      await new Promise((resolve): void => {
        setTimeout(resolve, 500);
      });
      await page.goto(url, { waitUntil: 'load' });
    }
    expect(await mainText(page)).toContain(text);
  };

  /**
   * axe-core's serious and critical violations of the page, at a desktop's and a phone's width, and
   * in the dark colour scheme (the layout's own colours for `prefers-color-scheme: dark`); a screenshot of each.
   */
  const checkPage = async(page: Page, name: string): Promise<void> => {
    const { violations, phoneOverflow } = await checkPageAccessibility(page, `webapp-${name}`);
    expect(violations).toEqual([]);
    // Nothing wider than the phone's screen.
    expect(phoneOverflow).toBe(0);
  };

  beforeAll(async() => {
    // Side by side; whichever started is stopped by afterAll if the other failed.
    const [ started, launched ] = await Promise.allSettled([ startFedpod({ config: 'activitypub' }), launchBrowser() ]);
    if (started.status === 'fulfilled') {
      server = started.value;
    }
    if (launched.status === 'fulfilled') {
      browser = launched.value;
    }
    for (const result of [ started, launched ]) {
      if (result.status === 'rejected') {
        throw result.reason;
      }
    }
  });

  afterAll(async() => {
    for (const page of pages) {
      await page.browserContext().close().catch((): void => undefined);
    }
    await browser?.close();
    await server?.stop();
  });

  it('takes people from the front page to their home, posting, following, liking, replying, with live notifications', async() => {
    const alice = await newSession();
    await go(alice, '');
    expect(await alice.$eval('h1', (heading): string => heading.textContent ?? '')).toBe('Fedpod');
    await checkPage(alice, 'front');

    await signUp(alice, 'alice');
    await compose(alice, 'Tea party at four', { warning: 'party plans' });
    expect(alice.url()).toBe(`${server.baseUrl}web/home`);
    // Folded behind its warning until opened.
    const summary = await alice.$eval('article.status details summary', (element): string => element.textContent ?? '');
    expect(summary).toBe('Content warning: party plans');
    expect(await alice.$eval('article.status details', (element): boolean => (element as HTMLDetailsElement).open)).toBe(false);
    await checkPage(alice, 'home');

    // Alice waits on her notifications page; the page is not loaded again from here on.
    await go(alice, 'web/notifications');
    await alice.evaluate((): void => {
      (window as unknown as { loadedOnce: boolean }).loadedOnce = true;
    });

    const bob = await newSession();
    await signUp(bob, 'bob');
    await bob.type('#handle', `@alice@${new URL(server.baseUrl).host}`);
    await submit(bob, 'form.follow button[type="submit"]');
    // The follow is accepted through the queue: the profile is opened again until it says so.
    await eventually(async() => {
      await go(bob, 'web/@alice');
      return (await mainText(bob)).includes('Unfollow');
    });
    await checkPage(bob, 'profile');

    // Bob likes the post, then replies from its thread.
    await submit(bob, 'article.status form[action$="/favourite"] button');
    expect(await bob.$eval('article.status form[action$="/unfavourite"] button', (button): string | null => button.getAttribute('aria-pressed')))
      .toBe('true');
    await submit(bob, 'article.status .actions a[href*="in_reply_to_id"]');
    // Checked before typing: the phone's viewport loads the page again.
    await checkPage(bob, 'compose-reply');
    // The reply's text field has the focus, the cursor after the prefilled mention: typing goes after it.
    await bob.waitForFunction((): boolean => {
      const area = document.activeElement as HTMLTextAreaElement | null;
      return area?.id === 'status' && area.value.length > 0 && area.selectionStart === area.value.length;
    }, { timeout: 30_000 });
    expect(await bob.$eval('#status', (area): string => (area as HTMLTextAreaElement).value)).toBe('@alice ');
    await bob.keyboard.type('I will bring the tea');
    expect(await bob.$eval('#status', (area): string => (area as HTMLTextAreaElement).value)).toBe('@alice I will bring the tea');
    await submit(bob, 'form.compose button[type="submit"]');

    // Alice's page shows the follow, the like and the reply as they happen.
    await alice.waitForFunction((): boolean => {
      const text = document.querySelector('[data-live="notifications"]')?.textContent ?? '';
      return text.includes('followed you') && text.includes('liked your post') && text.includes('mentioned you');
    }, { timeout: 60_000 });
    expect(await alice.evaluate((): boolean => (window as unknown as { loadedOnce?: boolean }).loadedOnce === true)).toBe(true);
    await checkPage(alice, 'notifications');

    // The thread shows the reply under the post.
    await submit(alice, '[data-live="notifications"] article.status .meta a');
    expect(await mainText(alice)).toContain('I will bring the tea');
    await checkPage(alice, 'thread');
  }, 300_000);

  it('posts an image with its alt text, hidden as sensitive until opened', async() => {
    const picture = path.join(tmpdir(), `webapp-${process.pid}.png`);
    writeFileSync(picture, await sharp({ create: { width: 64, height: 32, channels: 3, background: '#3366cc' }}).png().toBuffer());
    const alice = await newSession();
    await logIn(alice, 'alice');
    await alice.type('#status', 'Our new tablecloth');
    await ((await alice.$('#file_1')) as ElementHandle<HTMLInputElement>).uploadFile(picture);
    await alice.type('#description_1', 'A blue rectangle');
    await alice.click('input[name="sensitive"]');
    await submit(alice, 'form.compose button[type="submit"]');
    expect(alice.url()).toBe(`${server.baseUrl}web/home`);
    const article = 'article.status:first-of-type';
    expect(await alice.$eval(`${article} details.sensitive`, (element): boolean => (element as HTMLDetailsElement).open)).toBe(false);
    expect(await alice.$eval(`${article} img`, (image): string => image.getAttribute('alt') ?? '')).toBe('A blue rectangle');
    expect(await alice.$eval(`${article} figcaption`, (caption): string => caption.textContent ?? '')).toBe('Alt: A blue rectangle');
    await alice.click(`${article} details.sensitive summary`);
    await alice.waitForFunction((selector: string): boolean => {
      const image = document.querySelector(`${selector} img`) as HTMLImageElement | null;
      return image !== null && image.complete && image.naturalWidth > 0;
    }, { timeout: 30_000 }, article);
    await checkPage(alice, 'home-media');
  }, 180_000);

  it('posts several attachments: images with focal points set by a click, a video and a sound, all hidden as sensitive until opened', async() => {
    const directory = mkdtempSync(path.join(tmpdir(), 'webapp-media-'));
    const files = {
      wide: path.join(directory, 'wide.png'), tall: path.join(directory, 'tall.png'),
      video: path.join(directory, 'clip.webm'), sound: path.join(directory, 'beep.wav'),
    };
    writeFileSync(files.wide, await sharp({ create: { width: 200, height: 100, channels: 3, background: '#2d6a4f' }}).png().toBuffer());
    writeFileSync(files.tall, await sharp({ create: { width: 60, height: 120, channels: 3, background: '#9d4edd' }}).png().toBuffer());
    // The server knows a WebM file by its first bytes (the EBML header); it stores video as sent.
    writeFileSync(files.video, Buffer.concat([ Buffer.from([ 0x1A, 0x45, 0xDF, 0xA3 ]), Buffer.alloc(60) ]));
    writeFileSync(files.sound, wavTone());
    const alice = await newSession();
    await logIn(alice, 'alice');
    await checkPage(alice, 'compose-attachments');
    await alice.type('#status', 'Our picnic, in pictures and sound');
    const upload = async(slot: number, file: string, description: string): Promise<void> => {
      await ((await alice.$(`#file_${slot}`)) as ElementHandle<HTMLInputElement>).uploadFile(file);
      await alice.type(`#description_${slot}`, description);
    };
    await alice.click('details.more-attachments summary');
    await upload(1, files.wide, 'A green field');
    await upload(2, files.tall, 'A purple kite');
    await upload(3, files.video, 'The kite flying');
    await upload(4, files.sound, 'Birdsong');
    // The script shows the chosen image: a click on its upper left quarter sets the focal point there.
    const preview = '[data-attachment="1"] .preview img';
    await alice.waitForFunction((selector: string): boolean => {
      const image = document.querySelector(selector) as HTMLImageElement | null;
      return image !== null && image.complete && image.naturalWidth > 0 && image.getBoundingClientRect().width > 0;
    }, { timeout: 30_000 }, preview);
    const image = (await alice.$(preview))!;
    const box = (await image.boundingBox())!;
    // Scrolled into view, then clicked at an offset from the picture's corner.
    await image.click({ offset: { x: box.width * 0.25, y: box.height * 0.25 }});
    const focus = await alice.$eval('[data-attachment="1"] .focus', (fields): number[] =>
      Array.from(fields.querySelectorAll('input')).map((input) => Number((input as HTMLInputElement).value)));
    // Near -0.5, 0.5 (y upwards): the click lands on whole pixels.
    expect(focus[0]).toBeCloseTo(-0.5, 1);
    expect(focus[1]).toBeCloseTo(0.5, 1);
    const percent = (value: number): number => Math.round(value * 1000) / 10;
    // Without a click, the number fields take it (as without the script).
    await alice.type('#focus_x_2', '0');
    await alice.type('#focus_y_2', '-1');
    await alice.click('input[name="sensitive"]');
    await keepScreenshot(alice, 'webapp-compose-attachments-filled');
    await submit(alice, 'form.compose button[type="submit"]');
    expect(alice.url()).toBe(`${server.baseUrl}web/home`);

    const id = await alice.$$eval('article.status', (articles): string => articles.find((element): boolean =>
      (element.textContent ?? '').includes('Our picnic'))?.getAttribute('data-status') ?? '');
    const article = `#status-${id}`;
    expect(await alice.$eval(`${article} details.sensitive`, (element): boolean => (element as HTMLDetailsElement).open)).toBe(false);
    await alice.click(`${article} details.sensitive summary`);
    const shown = await alice.$eval(`${article} .media-grid`, (grid) => ({
      images: Array.from(grid.querySelectorAll('img')).map((image) => [ image.getAttribute('alt'), image.getAttribute('style') ]),
      video: Array.from(grid.querySelectorAll('video')).map((video) => [ video.hasAttribute('controls'), video.getAttribute('aria-label') ]),
      audio: Array.from(grid.querySelectorAll('audio')).map((audio) => [ audio.hasAttribute('controls'), audio.getAttribute('aria-label') ]),
      captions: Array.from(grid.querySelectorAll('figcaption')).map((caption) => caption.textContent),
    }));
    expect(shown).toEqual({
      images: [[ 'A green field', `object-position: ${percent((focus[0] + 1) / 2)}% ${percent((1 - focus[1]) / 2)}%` ],
        [ 'A purple kite', 'object-position: 50% 100%' ]],
      video: [[ true, 'The kite flying' ]],
      audio: [[ true, 'Birdsong' ]],
      captions: [ 'Alt: A green field', 'Alt: A purple kite', 'Description: The kite flying', 'Description: Birdsong' ],
    });
    // The sound is a real one: the browser reads its length.
    await alice.$eval(`${article} audio`, (audio): void => {
      (audio as HTMLAudioElement).preload = 'metadata';
      (audio as HTMLAudioElement).load();
    });
    await alice.waitForFunction((selector: string): boolean => {
      const audio = document.querySelector(`${selector} audio`) as HTMLAudioElement | null;
      return audio !== null && audio.duration > 0;
    }, { timeout: 30_000 }, article);
    await checkPage(alice, 'home-attachments');
  }, 240_000);

  it('shows a followers-only post to no stranger, on any page', async() => {
    const alice = await newSession();
    await logIn(alice, 'alice');
    await compose(alice, 'Secret recipe for followers', { visibility: 'private' });
    expect(await mainText(alice)).toContain('Secret recipe for followers');

    const carol = await newSession();
    await signUp(carol, 'carol');
    for (const path of [ 'web/home', 'web/local', 'web/federated', 'web/@alice', 'web/notifications' ]) {
      await go(carol, path);
      expect(await mainText(carol)).not.toContain('Secret recipe');
    }
    const anonymous = await newSession();
    // The login and signup pages, in the app's layout.
    for (const path of [ 'auth/login', 'auth/signup' ]) {
      await go(anonymous, path);
      expect(await anonymous.$eval('nav.app a[aria-current="page"]', (link): string => link.textContent ?? '')).toBe(path === 'auth/login' ? 'Log in' : 'Sign up');
      await checkPage(anonymous, path.replace('/', '-'));
    }
    for (const path of [ '', 'web/local', 'web/@alice' ]) {
      await go(anonymous, path);
      expect(await mainText(anonymous)).not.toContain('Secret recipe');
    }
  }, 180_000);

  it('composes a poll, lets another user vote in it, edits a post and reports it', async() => {
    /** The path of the post on the page whose text has `text` (its date links to its page). */
    const postPath = async(page: Page, text: string): Promise<string> => page.$$eval('article.status', (articles, wanted): string => {
      const article = articles.find((element): boolean => (element.textContent ?? '').includes(wanted));
      return article?.querySelector('p.meta a')?.getAttribute('href') ?? '';
    }, text);

    const alice = await newSession();
    await logIn(alice, 'alice');
    // Checked before typing: the phone's viewport loads the page again.
    await checkPage(alice, 'compose-poll');
    await alice.type('#status', 'Where do we have lunch?');
    await alice.type('#poll_option_1', 'The park');
    await alice.type('#poll_option_2', 'The pier');
    await alice.select('#poll_expires_in', '3600');
    await submit(alice, 'form.compose button[type="submit"]');
    const poll = await postPath(alice, 'Where do we have lunch?');
    expect(poll).toContain('web/statuses/');

    const bob = await newSession();
    await logIn(bob, 'bob');
    await bob.goto(poll, { waitUntil: 'load' });
    await checkPage(bob, 'poll-vote');
    await bob.click('form.poll input[name="choices"][value="1"]');
    await submit(bob, 'form.poll button[type="submit"]');
    expect(bob.url()).toBe(poll);
    // The results, once the vote reached the poll (the delivery queue): counted, and marked as bob's.
    await eventuallyOnPage(bob, poll, 'The pier: 1 (100%) (your vote)');
    await checkPage(bob, 'poll-results');

    // Alice edits her post from its Edit link; bob sees it changed and marked as edited.
    await alice.goto(poll, { waitUntil: 'load' });
    await submit(alice, 'article.status .actions a[href$="/edit"]');
    await checkPage(alice, 'edit');
    await alice.$eval('#status', (area): void => {
      (area as HTMLTextAreaElement).value = '';
    });
    await alice.type('#status', 'Where do we have lunch tomorrow?');
    await submit(alice, 'form.compose button[type="submit"]');
    expect(alice.url()).toBe(poll);
    expect(await mainText(alice)).toContain('lunch tomorrow?');
    await bob.goto(poll, { waitUntil: 'load' });
    expect(await mainText(bob)).toContain('lunch tomorrow?');
    expect(await bob.$eval('article.status .edited', (element): string => element.textContent ?? '')).toMatch(/^edited /u);

    // Bob reports the post.
    await submit(bob, 'article.status .actions a[href*="web/report"]');
    await checkPage(bob, 'report');
    await bob.click('input[name="category"][value="spam"]');
    await bob.type('#comment', 'Asks everyone about lunch');
    await submit(bob, 'form.report button[type="submit"]');
    expect(await bob.$eval('h1', (heading): string => heading.textContent ?? '')).toBe('Report sent');
    await checkPage(bob, 'report-sent');
  }, 300_000);
});
