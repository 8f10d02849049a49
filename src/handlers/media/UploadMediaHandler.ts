import type { MediaFields, MediaStore } from '../../plugins/media/MediaStore';
import { attachmentOf } from '../../plugins/media/MediaStore';
import { ACTIVITYSTREAMS_CONTEXT_URL, FEDIVERSE_TERMS } from '../../plugins/ldp/Contexts';
import { badRequest, forbidden } from '../../util/HttpErrors';
import { parseJson, sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';
import { mediaFields, storeUpload } from './MediaUpload';

/**
 * ActivityPub's `uploadMedia` endpoint (`endpoints.uploadMedia` of a local actor; the C2S
 * draft): a multipart POST by the actor with `file` and `object` (the ActivityStreams object it
 * describes; its `name` becomes the description). The upload is stored as any other
 * (MediaStore) and answered 201 with its Location: the object, whose `url` is the file. A
 * post that carries it in `attachment` is posted to the outbox as usual.
 */
export class UploadMediaHandler extends JsonHttpHandler {
  public constructor(private readonly media: MediaStore) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const username = operation.params.user ?? '';
    if (operation.agent.username !== username) {
      request.resume();
      throw forbidden('Only the actor uploads media to its own endpoint.');
    }
    const record = await storeUpload(request, this.media, username, objectFields);
    sendJson(response, 201, { '@context': [ ACTIVITYSTREAMS_CONTEXT_URL, FEDIVERSE_TERMS ], id: record.iri,
      attributedTo: record.owner, published: record.published, ...attachmentOf(record) },
    { location: record.iri }, 'application/activity+json');
  }
}

/** The description (and focal point) an upload's `object` part gives; 400 when it is not a JSON object. */
function objectFields(values: Map<string, string>): MediaFields {
  const text = values.get('object');
  if (text === undefined) {
    return {};
  }
  const object = parseJson(text);
  if (!object || typeof object !== 'object' || Array.isArray(object)) {
    throw badRequest('The object part must be an ActivityStreams object, as JSON.');
  }
  const { name, summary, focalPoint } = object as Record<string, unknown>;
  const description = typeof name === 'string' ? name : typeof summary === 'string' ? summary : undefined;
  const focus = Array.isArray(focalPoint) && focalPoint.length === 2 ? `${String(focalPoint[0])},${String(focalPoint[1])}` : undefined;
  return mediaFields(new Map([[ 'description', description ], [ 'focus', focus ]]));
}
