import type { IncomingMessage } from 'node:http';
import type { AccountImports } from '../../plugins/lifecycle/AccountImports';
import { badRequest, unsupportedMediaType } from '../../util/HttpErrors';
import { mediaTypeOf, readBody, sendJson } from '../http/HttpUtil';
import { readMultipartText } from '../http/MultipartText';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';

/** Mastodon's own limit on an import file. */
const MAX_FILE = 20 * 1024 * 1024;

/**
 * `POST /auth/import/<kind>` (following, blocks, mutes, bookmarks, domain_blocks) with a Mastodon CSV
 * file as the body (`text/csv`) or as the `data` field of a multipart form, `mode=merge|overwrite`
 * (the query or a form field; merge by default): 202 with the import's status, run by a queued job.
 * `GET /auth/import/<id>`: the logged-in user's import's counts and failed rows.
 */
export class AccountImportHandler extends JsonHttpHandler {
  public constructor(private readonly imports: AccountImports) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const username = operation.agent.username!;
    const param = operation.params.kind ?? '';
    if (request.method !== 'POST') {
      request.resume();
      sendJson(response, 200, await this.imports.status(username, param), { 'cache-control': 'no-store' });
      return;
    }
    const { text, mode } = await this.readFile(request, operation.target.query);
    const status = await this.imports.start(username, param, mode ?? 'merge', text);
    sendJson(response, 202, status, { location: new URL(status.id, operation.target.iri).href, 'cache-control': 'no-store' });
  }

  private async readFile(request: IncomingMessage, query: URLSearchParams): Promise<{ text: string; mode?: string }> {
    const type = mediaTypeOf(request.headers['content-type']);
    const mode = query.get('mode') ?? undefined;
    if (type === 'text/csv' || type === 'text/plain') {
      return { text: (await readBody(request, MAX_FILE)).toString('utf8'), mode };
    }
    if (type !== 'multipart/form-data') {
      request.resume();
      throw unsupportedMediaType(`Content-Type ${type} is not accepted here; send text/csv or a form with the file as data.`);
    }
    const form = await readMultipartText(request, MAX_FILE);
    const data = form.get('data');
    if (data === undefined) {
      throw badRequest('Send the file as the form\'s data field.', 'missing_file');
    }
    return { text: data, mode: form.get('mode') ?? mode };
  }
}
