import type { Json } from '../activitypub/ActivityJson';
import type { MediaRecord } from '../media/MediaStore';
import { attachmentOf } from '../media/MediaStore';
import type { MastodonAttachment } from './StatusEntity';
import { attachmentMeta } from './StatusEntity';

/** An upload as Mastodon's MediaAttachment: the same fields a status's attachment has. */
export function mediaEntity(record: MediaRecord): MastodonAttachment {
  const attachment = attachmentOf(record);
  return {
    id: record.id,
    type: record.kind === 'image' ? record.mediaType === 'image/gif' ? 'gifv' : 'image' : record.kind,
    url: record.url,
    preview_url: record.previewUrl ?? record.url,
    remote_url: null,
    description: record.description ?? null,
    blurhash: record.blurhash ?? null,
    meta: attachmentMeta(attachment, attachment.icon as Json | undefined),
  };
}
