import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import type { Focus, MediaFields, MediaRecord, MediaStore, ReceivedMedia } from '../../plugins/media/MediaStore';
import { unprocessableMedia } from '../../plugins/media/MediaProcessing';
import { badRequest, payloadTooLarge } from '../../util/HttpErrors';

/** Longest description Mastodon takes. */
const MAX_DESCRIPTION = 1500;
/** What a multipart body may bring besides its file (text fields, part headers). */
const FIELD_BYTES = 64 * 1024;

/**
 * Reads a multipart upload as it streams (busboy): its `file` part goes straight to
 * MediaStore.receive (sniffed, bounded by its kind's limit, re-encoded), its text fields are
 * kept (64 KiB at most each). The whole body is counted too: past the largest file plus the
 * fields' allowance it is refused (413), so no body is read without bound. Answers the text
 * fields and the received file; on any refusal nothing stays written. `skipUnnamed`: the body is
 * a browser's form, whose file parts without a file name are file inputs left empty (skipped);
 * an API client may send a file without a name.
 */
export async function readUpload(request: IncomingMessage, media: MediaStore, username: string,
  fileNames: readonly string[] = [ 'file' ], options: { skipUnnamed?: boolean } = {}): Promise<{ fields: Map<string, string>; files: Map<string, ReceivedMedia> }> {
  const fields = new Map<string, string>();
  const receiving = new Map<string, Promise<ReceivedMedia>>();
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: request.headers, limits: { files: fileNames.length, fields: 32, parts: 40, fieldSize: FIELD_BYTES }});
  } catch {
    request.resume();
    throw badRequest('Send the file as multipart/form-data.');
  }
  const cap = fileNames.length * media.maxBytes + 32 * FIELD_BYTES;
  let total = 0;
  const counter = (chunk: Buffer): void => {
    total += chunk.length;
    if (total > cap) {
      parser.destroy(payloadTooLarge(`The body is larger than the limit of ${cap} bytes.`));
    }
  };
  const finished = new Promise<void>((resolve, reject): void => {
    parser.on('file', (name, stream, info): void => {
      // A browser's form sends a part without a file name for a file input left empty (`skipUnnamed`).
      if (!fileNames.includes(name) || receiving.has(name) || (options.skipUnnamed === true && !info.filename)) {
        // A thumbnail of the client's own, or a second file: not used, read and dropped.
        stream.resume();
        return;
      }
      const received = media.receive(username, stream, info.mimeType);
      receiving.set(name, received);
      received.catch((error: unknown): void => {
        stream.resume();
        reject(error);
      });
    });
    parser.on('field', (name, value, info): void => {
      if (info.valueTruncated) {
        reject(unprocessableMedia(`The field ${name} is too long.`));
      }
      fields.set(name.endsWith('[]') ? name.slice(0, -2) : name, value);
    });
    parser.on('close', resolve);
    parser.on('error', reject);
    request.on('aborted', (): void => reject(Object.assign(new Error('The request closed before its body ended.'),
      { code: 'ERR_STREAM_PREMATURE_CLOSE' })));
  });
  request.on('data', counter);
  request.pipe(parser);
  try {
    await finished;
    const files = new Map<string, ReceivedMedia>();
    for (const [ name, received ] of receiving) {
      files.set(name, await received);
    }
    return { fields, files };
  } catch (error: unknown) {
    request.unpipe(parser);
    request.off('data', counter);
    // Whatever was written for a file of a refused body goes.
    for (const received of receiving.values()) {
      void received.then(async(done): Promise<void> => media.discard(done), (): void => undefined);
    }
    throw error;
  }
}

/** The fields of an upload Mastodon takes: `description` and `focus` ("x,y", each from -1 to 1); 422 for bad ones. */
export function mediaFields(values: Map<string, string | undefined>): MediaFields {
  const fields: MediaFields = {};
  const description = values.get('description');
  if (description !== undefined) {
    if ([ ...description ].length > MAX_DESCRIPTION) {
      throw unprocessableMedia(`Validation failed: Description is too long (maximum is ${MAX_DESCRIPTION} characters)`);
    }
    fields.description = description;
  }
  const focus = values.get('focus');
  if (focus !== undefined && focus !== '') {
    fields.focus = focusOf(focus);
  }
  return fields;
}

function focusOf(text: string): Focus {
  const parts = text.split(',').map((part): number => Number(part.trim()));
  if (parts.length !== 2 || parts.some((value): boolean => !Number.isFinite(value) || value < -1 || value > 1)) {
    throw unprocessableMedia('Validation failed: Focus must be two numbers from -1 to 1, as "x,y"');
  }
  return { x: parts[0], y: parts[1] };
}

/** Stores an upload: read it (readUpload), check its fields, describe it; nothing stays on a refusal. */
export async function storeUpload(request: IncomingMessage, media: MediaStore, username: string,
  fieldsOf: (values: Map<string, string>) => MediaFields = mediaFields): Promise<MediaRecord> {
  const { fields, files } = await readUpload(request, media, username);
  const received = files.get('file');
  if (!received) {
    throw unprocessableMedia('Validation failed: File can\'t be blank');
  }
  let checked: MediaFields;
  try {
    checked = fieldsOf(fields);
  } catch (error: unknown) {
    await media.discard(received);
    throw error;
  }
  return media.commit(received, checked);
}
