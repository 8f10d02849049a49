import type { HttpHandlerInput } from '@solid/community-server';
import type { MediaStore } from '../../plugins/media/MediaStore';
import { attachmentOf } from '../../plugins/media/MediaStore';
import { ACTIVITYSTREAMS_CONTEXT_URL, FEDIVERSE_TERMS } from '../../plugins/ldp/Contexts';
import { notFound } from '../../util/HttpErrors';
import { eTagFor, isNotModified } from '../http/ConditionalGet';
import { sendJson, sendStream } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import type { OperationInput } from '../http/Operation';
import { MEDIA_READ } from './MediaAccess';

/**
 * GET and HEAD of uploaded media, once MediaAccess allowed them: the file or thumbnail's bytes as
 * stored (with `nosniff` and a sandboxing CSP, so a file is never run as a page of this origin),
 * or the upload's description as an ActivityStreams object.
 */
export class MediaFileHandler extends JsonHttpHandler {
  public constructor(private readonly media: MediaStore) {
    super();
  }

  public override async canHandle(input: HttpHandlerInput): Promise<void> {
    const { request, operation } = input as OperationInput;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw NOT_HANDLED;
    }
    const found = MEDIA_READ.get(operation) ?? await this.media.recordOf(operation.target.iri, true);
    if (!found) {
      // The folder, or a file its owner wrote there by LDP: the LDP handlers serve them.
      throw NOT_HANDLED;
    }
    MEDIA_READ.set(operation, found);
  }

  protected async serve(input: HttpHandlerInput): Promise<void> {
    const { request, response, operation } = input as OperationInput;
    const iri = operation.target.iri;
    const found = MEDIA_READ.get(operation) ?? await this.media.recordOf(iri, true);
    if (!found) {
      throw notFound(`Nothing at ${iri}`);
    }
    const { record, file } = found;
    // Who may read depends on the post and its audience: never cached by others, revalidated by the reader.
    const headers = { 'cache-control': 'private, no-cache', 'x-content-type-options': 'nosniff',
      'content-security-policy': 'default-src \'none\'; sandbox', vary: 'Authorization' };
    if (iri === record.iri) {
      sendJson(response, 200, { '@context': [ ACTIVITYSTREAMS_CONTEXT_URL, FEDIVERSE_TERMS ], id: record.iri, attributedTo: record.owner,
        published: record.published, ...attachmentOf(record) }, headers, 'application/activity+json');
      return;
    }
    if (!file) {
      throw notFound(`Nothing at ${iri}`);
    }
    // An ETag as the LDP read gives a file's, so a reader's revalidation (no-cache) gets a 304 without
    // the bytes; only after the check above, which every request passes afresh.
    const eTag = eTagFor(file.modified, file.type);
    const versioned = eTag ? { etag: eTag, 'last-modified': file.modified!.toUTCString() } : {};
    if (eTag && isNotModified(request.headers['if-none-match'], request.headers['if-modified-since'], eTag, file.modified!)) {
      response.writeHead(304, { ...headers, ...versioned });
      response.end();
      return;
    }
    response.writeHead(200, { ...headers, ...versioned, 'content-type': file.type, 'content-length': file.size });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    sendStream(response, this.media.open(file.name), (error): void => {
      this.logger.error(`Reading the file of ${iri}: ${error.message}`);
    });
  }
}
