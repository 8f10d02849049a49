import type { MediaFields, MediaStore, ReceivedMedia } from '../../plugins/media/MediaStore';
import { escapeHtml } from '../http/Html';
import { mediaFields } from '../media/MediaUpload';

/** As many attachments as a post takes (Mastodon's four). */
export const MAX_ATTACHMENTS = 4;

/** The compose form's file inputs, one an attachment (a multipart form has one value a name). */
export const ATTACHMENT_FILES: readonly string[] = Array.from({ length: MAX_ATTACHMENTS }, (_, index): string => `file_${index + 1}`);

/** What the file inputs offer: the types the media plugin accepts (MediaProcessing's sniffing decides). */
const ACCEPT = [ 'image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'video/mp4', 'video/webm', 'video/quicktime',
  'audio/mpeg', 'audio/ogg', 'audio/wav', 'audio/flac', 'audio/mp4' ].join(',');

/**
 * The compose form's attachments: each a fieldset with its file, its description and an image's
 * focal point (x and y from -1 to 1, as the API's `focus`: without the script typed in, with it set
 * by a click on the preview), and one "sensitive" box for them all, as a post has.
 */
export function attachmentFields(): string {
  const slots = ATTACHMENT_FILES.map((name, index): string => {
    const n = index + 1;
    return `<fieldset class="attachment" data-attachment="${n}"><legend>Attachment ${n} (optional)</legend>
<label for="${name}">Image, video or audio file</label>
<input id="${name}" name="${name}" type="file" accept="${escapeHtml(ACCEPT)}">
<label for="description_${n}">Description, for people who cannot see or hear it</label>
<input id="description_${n}" name="description_${n}" maxlength="1500">
<fieldset class="focus"><legend>Focal point of an image (optional: from -1 to 1; 0, 0 is the middle)</legend>
<label for="focus_x_${n}">Across (left -1, right 1)</label>
<input id="focus_x_${n}" name="focus_x_${n}" type="number" min="-1" max="1" step="0.01" inputmode="decimal">
<label for="focus_y_${n}">Up and down (bottom -1, top 1)</label>
<input id="focus_y_${n}" name="focus_y_${n}" type="number" min="-1" max="1" step="0.01" inputmode="decimal">
</fieldset>
</fieldset>`;
  });
  // The first slot open, the others folded: the form stays short on a phone.
  return `${slots[0]}
<details class="more-attachments"><summary>More attachments (up to ${MAX_ATTACHMENTS})</summary>
${slots.slice(1).join('\n')}
</details>
<label><input type="checkbox" name="sensitive" value="true"> Sensitive media (hidden until opened)</label>`;
}

/**
 * Stores the attachments a compose form brought, in the form's order: each file with its
 * description and focal point, checked as `PUT /api/v1/media/:id` checks them (422 for a bad one).
 * Every field is checked before anything is stored; on a refusal none of the files stays.
 */
export async function commitAttachments(media: MediaStore, form: URLSearchParams, files: ReadonlyMap<string, ReceivedMedia>):
Promise<string[]> {
  const chosen: { received: ReceivedMedia; fields: MediaFields }[] = [];
  try {
    ATTACHMENT_FILES.forEach((name, index): void => {
      const received = files.get(name);
      if (received) {
        chosen.push({ received, fields: mediaFields(new Map([[ 'description', form.get(`description_${index + 1}`) ?? '' ],
          [ 'focus', focusOf(form, index + 1) ]])) });
      }
    });
  } catch (error: unknown) {
    await discardAll(media, files);
    throw error;
  }
  const ids: string[] = [];
  for (const { received, fields } of chosen) {
    ids.push((await media.commit(received, fields)).id);
  }
  return ids;
}

/** Drops every file a refused form brought. */
export async function discardAll(media: MediaStore, files: ReadonlyMap<string, ReceivedMedia>): Promise<void> {
  await Promise.all([ ...files.values() ].map(async(received): Promise<void> => media.discard(received)));
}

/** The slot's focal point as the API's `focus` ("x,y"): none when both are empty, a missing one is the middle (0). */
function focusOf(form: URLSearchParams, n: number): string | undefined {
  const x = (form.get(`focus_x_${n}`) ?? '').trim();
  const y = (form.get(`focus_y_${n}`) ?? '').trim();
  return x === '' && y === '' ? undefined : `${x || '0'},${y || '0'}`;
}
