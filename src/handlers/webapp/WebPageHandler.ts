import { readBody, sendHtml } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';
import type { ViewContext } from './StatusView';
import { APP_PAGE_HEADERS, renderAppPage } from './WebNav';
import type { WebReader, WebSession } from './WebSession';

/** A page of the app: its title and its main part's HTML. */
export interface WebPage {
  title: string;
  body: string;
}

/** A page's request: its path (no leading slash), its template's parameters and its query. */
export interface WebPageRequest {
  path: string;
  params: Readonly<Record<string, string | undefined>>;
  query: URLSearchParams;
}

/**
 * The frame of the app's further pages (lists, filters, search): a GET is a page (`page()`, with the
 * session's reader or none; undefined: a logged-in reader's page, so the login first), a POST a form
 * (the session and its form key needed, 403 otherwise and nothing done; `act()` answers the page to
 * go to, 303). As every answer of the app: for this origin only (no CORS headers).
 */
export abstract class WebPageHandler extends JsonHttpHandler {
  protected readonly base: string;

  protected constructor(baseUrl: string, protected readonly session: WebSession, private readonly maxBodyBytes = 65_536) {
    super();
    this.base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    response.removeHeader('access-control-allow-origin');
    response.removeHeader('access-control-allow-credentials');
    const path = operation.target.path.replace(/^\//u, '');
    const target: WebPageRequest = { path, params: operation.params, query: operation.target.query };
    if (request.method === 'POST') {
      const form = new URLSearchParams((await readBody(request, this.maxBodyBytes)).toString('utf8'));
      const reader = await this.session.poster(request, form);
      const location = await this.act(target, reader, form);
      response.writeHead(303, { location: `${this.base}${location}`, 'cache-control': 'no-store' });
      response.end();
      return;
    }
    const reader = await this.session.reader(request);
    const context: ViewContext = { base: this.base, reader, back: `${path}${operation.target.search}` };
    const page = await this.page(target, context);
    if (!page) {
      response.writeHead(303, { location: `${this.base}auth/login?next=${encodeURIComponent(context.back)}`, 'cache-control': 'no-store' });
      response.end();
      return;
    }
    sendHtml(response, 200, renderAppPage(this.base, page.title, page.body, reader !== undefined, path), { ...APP_PAGE_HEADERS },
      request.method === 'HEAD');
  }

  /** The page, or undefined when it is a logged-in reader's and nobody is logged in. */
  protected abstract page(request: WebPageRequest, context: ViewContext): Promise<WebPage | undefined>;

  /** What a form asks, done as the session's user; the page to go to next (a path under the base). */
  protected abstract act(request: WebPageRequest, reader: WebReader, form: URLSearchParams): Promise<string>;
}
