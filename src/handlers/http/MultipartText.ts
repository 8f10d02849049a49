import type { IncomingMessage } from 'node:http';
import { badRequest } from '../../util/HttpErrors';
import { readBody } from './HttpUtil';

/**
 * The fields of a `multipart/form-data` body of at most `limit` bytes, files read as UTF-8 text
 * (the last value of a repeated name); a 400 for a body that is not such a form.
 */
export async function readMultipartText(request: IncomingMessage, limit: number): Promise<Map<string, string>> {
  const body = await readBody(request, limit);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': request.headers['content-type'] ?? '' }}).formData();
  } catch {
    throw badRequest('The multipart body could not be read.', 'invalid_request');
  }
  const entries: [string, string | Blob][] = [];
  form.forEach((value, name): void => {
    entries.push([ name, value ]);
  });
  const fields = new Map<string, string>();
  for (const [ name, value ] of entries) {
    fields.set(name, typeof value === 'string' ? value : await value.text());
  }
  return fields;
}
