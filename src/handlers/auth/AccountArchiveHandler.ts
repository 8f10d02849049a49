import { pipeline } from 'node:stream/promises';
import type { AccountArchive } from '../../plugins/lifecycle/AccountArchive';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';

/**
 * `GET /auth/export/archive` by the logged-in user: their archive (AccountArchive) as a tar
 * download, streamed as it is made. An error once it has begun can only cut the download short.
 */
export class AccountArchiveHandler extends JsonHttpHandler {
  public constructor(private readonly archive: AccountArchive) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    request.resume();
    const username = operation.agent.username!;
    response.writeHead(200, {
      'content-type': 'application/x-tar',
      'content-disposition': `attachment; filename="${username}-archive.tar"`,
      'cache-control': 'no-store',
    });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    await pipeline(this.archive.archive(username), response);
  }
}
