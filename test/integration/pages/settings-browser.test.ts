/**
 * The settings and operator pages in a real headless Chromium, as a person uses them: edit the
 * profile with an avatar, change the password, revoke an app; as the operator, approve a pending
 * account and block a domain. Each page is checked with axe-core (no serious or critical
 * accessibility violation) and kept as screenshots at desktop and phone width.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import sharp from 'sharp';
import { keepScreenshot, launchBrowser } from '../../support/browser';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { fedpodCli } from '../../support/fedpod-cli';
import { appToken } from '../../support/mastodon-oauth';
import { makeTempDir } from '../../support/processes';

const PASSWORD = 'correct horse';
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true };

interface AxeViolation { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }

describe('settings and operator pages in a browser', () => {
  let server: FedpodServer;
  let base: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub', extraArgs: [ '--registrations', 'approval' ]});
    base = server.baseUrl;
    for (const username of [ 'alice', 'bob', 'carol', 'mallory' ]) {
      const answer = await fetch(`${base}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, email: `${username}@example.com`, password: PASSWORD, reason: `Hello, I am ${username}.` }) });
      expect(answer.status).toBe(202);
    }
    for (const username of [ 'alice', 'bob', 'carol' ]) {
      await fedpodCli(server, [ 'accounts', 'approve', username ]);
    }
    await fedpodCli(server, [ 'accounts', 'role', 'alice', 'operator' ]);
    browser = await launchBrowser();
  });

  beforeEach(async() => {
    // A fresh context per test: no session carried over.
    page = await (await browser.createBrowserContext()).newPage();
    await page.setViewport(DESKTOP);
  });

  afterEach(async() => {
    await page?.browserContext().close();
  });

  afterAll(async() => {
    await browser?.close();
    await server?.stop();
  });

  const logIn = async(username: string, password = PASSWORD): Promise<void> => {
    await page.goto(`${base}auth/login`);
    await page.type('#username', username);
    await page.type('#password', password);
    await Promise.all([ page.waitForNavigation(), page.click('form button[type=submit]') ]);
    expect(page.url()).toBe(`${base}auth/account`);
  };

  const submit = async(selector: string): Promise<number> => {
    const [ answer ] = await Promise.all([ page.waitForNavigation(), page.click(selector) ]);
    return answer!.status();
  };

  const main = async(): Promise<string> => page.$eval('main', (element) => (element as HTMLElement).innerText);

  /** axe-core on the page as it is: no serious or critical violation; then screenshots at desktop and phone width. */
  const check = async(name: string): Promise<void> => {
    // DevTools evaluation, which the page's policy (no script at all) does not govern.
    await page.evaluate(AXE);
    const violations = await page.evaluate(async() => {
      const axe = (window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
      return (await axe.run(document, { resultTypes: [ 'violations' ] })).violations
        .map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map((node) => ({ target: node.target })) }));
    });
    expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
    await keepScreenshot(page, `settings-${name}`);
    await page.setViewport(PHONE);
    // Nothing wider than the phone's screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await keepScreenshot(page, `settings-${name}-phone`);
    await page.setViewport(DESKTOP);
  };

  it('edits the profile with an avatar, the change seen by others', async() => {
    await logIn('bob');
    await Promise.all([ page.waitForNavigation(), page.click(`a[href="${base}auth/settings/profile"]`) ]);
    await check('profile');
    // No operator link for a user without the role.
    expect(await page.$(`a[href="${base}auth/operator"]`)).toBeNull();

    const avatar = path.join(makeTempDir('avatar'), 'avatar.png');
    writeFileSync(avatar, await sharp({ create: { width: 120, height: 120, channels: 3, background: '#2a7f62' } }).png().toBuffer());
    await page.$eval('#display_name', (element) => {
      (element as HTMLInputElement).value = '';
    });
    await page.type('#display_name', 'Bob the Builder');
    await page.type('#note', 'Builds things.\n\nFixes them too.');
    await page.type('#field-0-name', 'Site');
    await page.type('#field-0-value', 'https://bob.example');
    await page.click('#locked');
    const input = await page.$('#avatar');
    await (input as unknown as { uploadFile: (file: string) => Promise<void> }).uploadFile(avatar);
    // The header input stays empty: the browser sends it as an empty file, which is no change.
    const status = await submit('form button[type=submit]');
    expect({ status, text: status === 200 ? '' : await main() }).toEqual({ status: 200, text: '' });
    expect(page.url()).toBe(`${base}auth/settings/profile?done=saved`);
    expect(await page.$eval('[role=status]', (element) => element.textContent)).toBe('Your profile is saved.');
    expect(await page.$eval('#display_name', (element) => (element as HTMLInputElement).value)).toBe('Bob the Builder');
    expect(await page.$eval('#locked', (element) => (element as HTMLInputElement).checked)).toBe(true);
    // The new avatar is shown, loaded from this server under the page's policy.
    const shown = await page.$eval('img.avatar', (element) => ({ loaded: (element as HTMLImageElement).naturalWidth, alt: element.getAttribute('alt') }));
    expect(shown.loaded).toBeGreaterThan(0);
    await check('profile-saved');

    // Others see it: the actor and its profile page.
    const actor = await (await fetch(`${base}actors/bob`, { headers: { accept: 'application/activity+json' } })).json() as
      { name: string; icon?: { url: string }; image?: unknown };
    expect(actor.name).toBe('Bob the Builder');
    expect(actor.icon?.url).toMatch(/^http/u);
    expect(actor.image).toBeUndefined();
  });

  it('changes the password, with a clear error for a wrong current one', async() => {
    await logIn('carol');
    await page.goto(`${base}auth/settings/password`);
    await check('password');
    await page.type('#currentPassword', 'not my password');
    await page.type('#newPassword', 'a much longer horse');
    await page.type('#confirmPassword', 'a much longer horse');
    expect(await submit('form button[type=submit]')).toBe(403);
    expect(await page.$eval('[role=alert]', (element) => element.textContent)).toBe('The current password is wrong.');
    await check('password-error');

    await page.type('#currentPassword', PASSWORD);
    await page.type('#newPassword', 'a much longer horse');
    await page.type('#confirmPassword', 'a much longer horse');
    expect(await submit('form button[type=submit]')).toBe(200);
    expect(await page.$eval('[role=status]', (element) => element.textContent)).toContain('Your password is changed.');
    // Still logged in here, with the new session.
    await page.goto(`${base}auth/settings/sessions`);
    expect(page.url()).toBe(`${base}auth/settings/sessions`);
    const login = async(password: string): Promise<number> => (await fetch(`${base}auth/login`, { method: 'POST',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'carol', password }) })).status;
    expect(await login(PASSWORD)).toBe(401);
    expect(await login('a much longer horse')).toBe(200);
  });

  it('revokes an app', async() => {
    const token = await appToken(base, 'bob', PASSWORD, 'read');
    await logIn('bob');
    await page.goto(`${base}auth/settings/sessions`);
    expect(await main()).toContain('app of bob');
    await check('sessions');
    expect(await submit('ul.apps button[type=submit]')).toBe(200);
    expect(await page.$eval('[role=status]', (element) => element.textContent)).toBe('The app can no longer use your account.');
    expect(await main()).not.toContain('app of bob');
    expect((await fetch(`${base}api/v1/accounts/verify_credentials`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  it('lets the operator approve a pending account and block a domain', async() => {
    await logIn('alice');
    await page.goto(`${base}auth/settings/profile`);
    await Promise.all([ page.waitForNavigation(), page.click(`nav a[href="${base}auth/operator"]`) ]);
    await check('operator');

    await Promise.all([ page.waitForNavigation(), page.click(`main a[href="${base}auth/operator/registrations"]`) ]);
    expect(await main()).toContain('Hello, I am mallory.');
    await check('operator-registrations');
    expect(await submit('button[aria-label="Approve mallory"]')).toBe(200);
    expect(await page.$eval('[role=status]', (element) => element.textContent)).toContain('approved');
    expect(await main()).toContain('Nobody is waiting.');
    expect((await fetch(`${base}auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'mallory', password: PASSWORD }) })).status).toBe(200);

    await page.goto(`${base}auth/operator/domain-blocks`);
    await check('operator-domain-blocks-empty');
    await page.type('#domain', 'spam.example');
    await page.select('#severity', 'silence');
    await page.click('#reject_media');
    await page.type('#public_comment', 'Spam, mostly');
    expect(await submit('form:has(#domain) button[type=submit]')).toBe(200);
    expect(await page.$eval('[role=status]', (element) => element.textContent)).toBe('The block is saved.');
    expect(await page.$eval('tbody tr', (row) => (row as HTMLElement).innerText)).toMatch(/spam\.example\s+silence\s+yes\s+Spam, mostly/u);
    await check('operator-domain-blocks');

    await page.goto(`${base}auth/operator/invites`);
    await page.type('#maxUses', '5');
    expect(await submit('form:has(#maxUses) button[type=submit]')).toBe(200);
    expect(await main()).toContain('0 of 5');
    await check('operator-invites');
    await page.goto(`${base}auth/operator/audit-log`);
    expect(await main()).toContain('domain_block.create');
    await check('operator-audit-log');
  });

  it('refuses the operator pages to a user without the role', async() => {
    await logIn('bob');
    const answer = await page.goto(`${base}auth/operator`);
    expect(answer?.status()).toBe(403);
    expect(await main()).not.toContain('Registration queue');
  });

  it('runs no script the page itself carries', async() => {
    await logIn('bob');
    await page.goto(`${base}auth/settings/profile`);
    const blocked = await page.evaluate(async() => new Promise<boolean>((resolve) => {
      document.addEventListener('securitypolicyviolation', () => resolve(true));
      const script = document.createElement('script');
      script.textContent = 'document.body.dataset.ran = "yes";';
      document.body.append(script);
      setTimeout(() => resolve(false), 2000);
    }));
    expect(blocked).toBe(true);
    expect(await page.$eval('body', (body) => body.dataset.ran)).toBeUndefined();
  });
});
