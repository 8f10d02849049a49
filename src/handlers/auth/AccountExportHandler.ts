import type { AccountExports } from '../../plugins/lifecycle/AccountExports';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';

/**
 * `GET /auth/export/<file>.csv` by the logged-in user: their follows, blocks, mutes or bookmarks in
 * Mastodon's CSV (AccountExports), as a download.
 */
export class AccountExportHandler extends JsonHttpHandler {
  public constructor(private readonly exports: AccountExports) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    request.resume();
    const file = operation.params.file ?? '';
    const text = await this.exports.csv(operation.agent.username!, file);
    response.writeHead(200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'content-disposition': `attachment; filename="${file}"`,
      'cache-control': 'no-store',
    });
    response.end(request.method === 'HEAD' ? undefined : text);
  }
}
