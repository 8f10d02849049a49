import type { OperationInput } from '../http/Operation';
import { MastodonHandler } from './MastodonHandler';

/** `GET /api/v1/streaming/health`: `OK`, as Mastodon's streaming server answers (apps probe it). */
export class MastodonStreamingHealthHandler extends MastodonHandler {
  protected async serve({ request, response }: OperationInput): Promise<void> {
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : 'OK');
  }
}
