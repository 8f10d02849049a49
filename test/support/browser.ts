/**
 * A real headless browser for the page tests: the system's Chromium (Debian's `chromium`, which
 * scripts/ensure-test-deps.sh installs), driven by puppeteer-core. FEDPOD_CHROMIUM names another binary.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { runDir } from './processes';

function chromiumPath(): string {
  const named = process.env.FEDPOD_CHROMIUM;
  if (named) {
    return named;
  }
  for (const binary of [ 'chromium', 'chromium-browser', 'google-chrome' ]) {
    try {
      return execFileSync('sh', [ '-c', `command -v ${binary}` ], { encoding: 'utf8' }).trim();
    } catch {
      // Not this one.
    }
  }
  throw new Error('No Chromium found: install Debian\'s chromium (scripts/ensure-test-deps.sh does) or set FEDPOD_CHROMIUM');
}

export async function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({ executablePath: chromiumPath(), headless: true,
    // No sandbox: tests run as root in containers, where Chromium's sandbox cannot start.
    args: [ '--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu' ] });
}

/** Keeps a screenshot of the page with the run's logs (`logs/screenshots/<name>.png`), as a test artifact. */
export async function keepScreenshot(page: Page, name: string): Promise<string> {
  // Beside the logs: the run's other data is removed at teardown, its logs are kept.
  const directory = path.join(runDir(), 'logs', 'screenshots');
  fs.mkdirSync(directory, { recursive: true });
  const file = path.join(directory, `${name.replace(/[^a-z0-9-]+/giu, '-')}.png`);
  await page.screenshot({ path: file as `${string}.png`, fullPage: true });
  return file;
}

interface AxeViolation { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }

/** A phone's and a desktop's viewport, as the page tests use them. */
export const PHONE_VIEWPORT = { width: 390, height: 844, isMobile: true, hasTouch: true };
export const DESKTOP_VIEWPORT = { width: 1100, height: 900 };

/**
 * axe-core's serious and critical violations of the page at a desktop's and a phone's width and in the dark colour scheme (as
 * `id: help (targets)` lines), a screenshot of each kept (`<name>-desktop`, `<name>-phone`, `<name>-dark`), and
 * whether anything is wider than the phone's screen. The page is left at the desktop's width.
 */
export async function checkPageAccessibility(page: Page, name: string): Promise<{ violations: string[]; phoneOverflow: number }> {
  const axe = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const found: string[] = [];
  let phoneOverflow = 0;
  // The dark scheme too: the layout sets its own colours for `prefers-color-scheme: dark`.
  for (const [ size, viewport, scheme ] of [
    [ 'desktop', DESKTOP_VIEWPORT, 'light' ], [ 'phone', PHONE_VIEWPORT, 'light' ], [ 'dark', DESKTOP_VIEWPORT, 'dark' ],
  ] as const) {
    await page.setViewport(viewport);
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    // Injected through the DevTools protocol, which the page's CSP does not govern.
    await page.evaluate(axe);
    const violations = await page.evaluate(async(): Promise<AxeViolation[]> => {
      const run = (window as unknown as { axe: { run: () => Promise<{ violations: AxeViolation[] }> } }).axe;
      return (await run.run()).violations;
    });
    found.push(...violations.filter((violation): boolean => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation): string => `${size} ${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`));
    await keepScreenshot(page, `${name}-${size}`);
    if (size === 'phone') {
      phoneOverflow = Math.max(0, await page.evaluate((): number => document.documentElement.scrollWidth) - viewport.width);
    }
  }
  await page.setViewport(DESKTOP_VIEWPORT);
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  return { violations: found, phoneOverflow };
}
