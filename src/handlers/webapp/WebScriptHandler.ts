import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { HttpHandlerInput } from '@solid/community-server';
import { HttpHandler } from '@solid/community-server';

/** The app's script, a file of the package (no build step): read once. */
const SCRIPT = readFileSync(path.join(__dirname, '..', '..', '..', 'assets', 'webapp', 'app.js'));

/**
 * `GET /web/app.js`: the web app's only script (live updates), served as a file because the app's
 * pages allow no inline script (their Content-Security-Policy: `script-src 'self'`).
 */
export class WebScriptHandler extends HttpHandler {
  public async handle({ request, response }: HttpHandlerInput): Promise<void> {
    response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'content-length': SCRIPT.length,
      'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' });
    response.end(request.method === 'HEAD' ? undefined : SCRIPT);
  }
}
