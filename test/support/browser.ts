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
