import type { MarkerTimeline } from '../../plugins/mastodon/MastodonMarkers';
import { MARKER_TIMELINES } from '../../plugins/mastodon/MastodonMarkers';
import type { MastodonMarkers } from '../../plugins/mastodon/MastodonMarkers';
import { FedpodHttpError } from '../../util/HttpErrors';
import { parseJson, readBody, sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { MastodonHandler } from './MastodonHandler';
import { arrayParameter } from './MastodonNotificationsHandler';

const MAX_BODY_BYTES = 16 * 1024;

const isTimeline = (name: string): name is MarkerTimeline => (MARKER_TIMELINES as readonly string[]).includes(name);

/**
 * `GET /api/v1/markers?timeline[]=home&timeline[]=notifications` (the markers ever set, by timeline)
 * and `POST /api/v1/markers` with `home[last_read_id]` and/or `notifications[last_read_id]` as a
 * form, or `{ "home": { "last_read_id": ... } }` as JSON: answers the markers it set.
 */
export class MastodonMarkersHandler extends MastodonHandler {
  public constructor(private readonly markers: MastodonMarkers) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    if (request.method !== 'POST') {
      const timelines = arrayParameter(operation.target.query, 'timeline').filter(isTimeline);
      sendJson(response, 200, await this.markers.get(operation.agent.webId!, timelines));
      return;
    }
    const text = (await readBody(request, MAX_BODY_BYTES)).toString('utf8');
    const wanted = new Map<MarkerTimeline, string>();
    if ((request.headers['content-type'] ?? '').includes('json')) {
      const body = parseJson(text);
      for (const timeline of MARKER_TIMELINES) {
        const value = (body as Record<string, { last_read_id?: unknown } | undefined> | undefined)?.[timeline]?.last_read_id;
        if (typeof value === 'string' || typeof value === 'number') {
          wanted.set(timeline, String(value));
        }
      }
    } else {
      const form = new URLSearchParams(text);
      for (const timeline of MARKER_TIMELINES) {
        const value = form.get(`${timeline}[last_read_id]`);
        if (value) {
          wanted.set(timeline, value);
        }
      }
    }
    if (wanted.size === 0 || [ ...wanted.values() ].some((id): boolean => id.length > 200)) {
      throw new FedpodHttpError(422, 'unprocessable_entity', 'Validation failed: give home[last_read_id] or notifications[last_read_id]');
    }
    const answer: Record<string, unknown> = {};
    for (const [ timeline, id ] of wanted) {
      answer[timeline] = await this.markers.set(operation.agent.webId!, timeline, id);
    }
    sendJson(response, 200, answer);
  }
}
