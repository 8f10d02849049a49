import { idOf, isObject } from '../activitypub/ActivityJson';
import type { Json } from '../activitypub/ActivityJson';
import type { OutgoingActivity } from '../activitypub/outbound/OutboundActivityEffect';
import { OutboundActivityEffect } from '../activitypub/outbound/OutboundActivityEffect';
import type { MediaRecord, MediaStore } from './MediaStore';
import { attachmentOf } from './MediaStore';
import { unprocessableMedia } from './MediaProcessing';

/**
 * A Create posted to the outbox whose object's `attachment` names one of the poster's uploads (by
 * its file's URL, as uploadMedia and the Mastodon API answer it, or its description's IRI) attaches
 * that upload to the post, as `media_ids` do through the Mastodon API: its readers are then the
 * post's audience (MediaAccess). The attachment is completed from the upload (type, size, blurhash,
 * thumbnail); a `name` the client gave stays. Another's upload, or a URL elsewhere, stays a plain
 * link, attaching nothing; an upload of the poster's already attached to another post is refused
 * (422), as Mastodon refuses it.
 */
export class MediaAttachSentEffect extends OutboundActivityEffect {
  public readonly types = [ 'Create' ];

  public constructor(private readonly media: MediaStore) {
    super();
  }

  public async apply({ activity, actor }: OutgoingActivity): Promise<void> {
    const object = activity.object;
    if (!isObject(object) || object.attachment === undefined) {
      return;
    }
    const given = Array.isArray(object.attachment) ? object.attachment : [ object.attachment ];
    const records: MediaRecord[] = [];
    const attachments: unknown[] = [];
    for (const entry of given) {
      const record = await this.uploadOf(entry, actor);
      if (!record) {
        attachments.push(entry);
        continue;
      }
      if (record.attachedTo !== undefined && record.attachedTo !== object.id) {
        throw unprocessableMedia(`Validation failed: Media ${record.id} is attached to another post.`);
      }
      records.push(record);
      const name = isObject(entry) && typeof entry.name === 'string' ? { name: entry.name } : {};
      attachments.push({ ...attachmentOf(record), ...name });
    }
    if (records.length === 0) {
      return;
    }
    object.attachment = attachments as Json[];
    await this.media.attach(records, object.id as string);
  }

  /** The poster's upload an attachment names, if it names one. */
  private async uploadOf(entry: unknown, actor: string): Promise<MediaRecord | undefined> {
    const url = isObject(entry) ? idOf(entry.url) ?? idOf(entry.href) ?? idOf(entry) : typeof entry === 'string' ? entry : undefined;
    if (!url) {
      return undefined;
    }
    const found = await this.media.recordOf(url);
    return found?.record.owner === actor ? found.record : undefined;
  }
}
