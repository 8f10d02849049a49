import type { MediaStore } from '../../plugins/media/MediaStore';
import { mediaEntity } from '../../plugins/mastodon/MediaEntity';
import { notFound } from '../../util/HttpErrors';
import { sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { mediaFields, storeUpload } from '../media/MediaUpload';
import { MastodonHandler } from './MastodonHandler';
import { readOAuthParams, single } from './OAuthParams';

/**
 * Media uploads, by the route's name: `mastodon-media-upload` (`POST /api/v1/media`,
 * `/api/v2/media`: multipart `file`, `description`, `focus`; processed before the answer, so
 * both answer 200 with the MediaAttachment and its `url`) and `mastodon-media` (`GET`, `PUT
 * /api/v1/media/:id`: the user's own upload; PUT changes `description` and `focus` while it is
 * not attached to a post, as Mastodon allows). Another's upload, or an attached one for PUT: 404.
 */
export class MastodonMediaHandler extends MastodonHandler {
  public constructor(private readonly media: MediaStore) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const username = operation.agent.username!;
    if (operation.route.name === 'mastodon-media-upload') {
      sendJson(response, 200, mediaEntity(await storeUpload(request, this.media, username)));
      return;
    }
    const id = operation.params.id ?? '';
    if (request.method !== 'PUT') {
      const record = await this.media.get(username, id);
      if (!record) {
        throw notFound('Record not found', 'record_not_found');
      }
      sendJson(response, 200, mediaEntity(record));
      return;
    }
    const params = await readOAuthParams(request, operation.target.query);
    const record = await this.media.get(username, id);
    if (!record || record.attachedTo !== undefined) {
      throw notFound('Record not found', 'record_not_found');
    }
    const fields = mediaFields(new Map([ 'description', 'focus' ].map((name): [string, string | undefined] => [ name, single(params, name) ])));
    sendJson(response, 200, mediaEntity(await this.media.update(username, id, fields)));
  }
}
