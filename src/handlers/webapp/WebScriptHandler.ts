import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { HttpHandlerInput } from '@solid/community-server';
import { HttpHandler } from '@solid/community-server';

/** The app's scripts, files of the package (no build step). */
const ASSETS = path.join(__dirname, '..', '..', '..', 'assets', 'webapp');

/**
 * `GET /web/app.js` (live updates), `GET /web/compose.js` (the compose form's helpers): a script of
 * the web app, served as a file because the app's pages allow no inline script (their
 * Content-Security-Policy: `script-src 'self'`). Read once.
 */
export class WebScriptHandler extends HttpHandler {
  private readonly script: Buffer;

  /**
   * @param file - The script's file name in the package's `assets/webapp/`.
   */
  public constructor(file = 'app.js') {
    super();
    if (!/^[\w-]+\.js$/u.test(file)) {
      throw new Error(`Not a script of the web app: ${file}`);
    }
    this.script = readFileSync(path.join(ASSETS, file));
  }

  public async handle({ request, response }: HttpHandlerInput): Promise<void> {
    response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'content-length': this.script.length,
      'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' });
    response.end(request.method === 'HEAD' ? undefined : this.script);
  }
}
