import { notFound } from '../../util/HttpErrors';
import type { OperationInput } from '../http/Operation';
import { MastodonHandler } from './MastodonHandler';

/** Every /api/v1 and /api/v2 path not served yet: 404 `{ "error": "Record not found" }`, as Mastodon answers unknown records. */
export class MastodonNotFoundHandler extends MastodonHandler {
  protected async serve({ request }: OperationInput): Promise<void> {
    request.resume();
    throw notFound('Record not found');
  }
}
