import { linkHeader, timelineQuery } from '../../../../src/handlers/mastodon/Pagination';
import { Operation } from '../../../../src/handlers/http/Operation';

const OLDER = '01a22154-12ef-751e-8f17-84f7c73e4958';
const NEWER = '01a22154-1300-751e-8f17-84f7c73e4958';

describe('Mastodon pagination', (): void => {
  it('reads limit (20 by default, 40 at most) and places cursors by their ids\' time', (): void => {
    expect(timelineQuery(new URLSearchParams())).toEqual({ limit: 20, before: undefined, after: undefined, ascending: false });
    expect(timelineQuery(new URLSearchParams('limit=500')).limit).toBe(40);
    expect(timelineQuery(new URLSearchParams('limit=-1')).limit).toBe(20);
    expect(timelineQuery(new URLSearchParams(`max_id=${NEWER}&since_id=${OLDER}`))).toEqual({ limit: 20,
      before: new Date('2026-11-28T08:44:47.744Z'), after: new Date('2026-11-28T08:44:47.727Z'), ascending: false });
    expect(timelineQuery(new URLSearchParams(`min_id=${OLDER}`))).toMatchObject({ after: new Date('2026-11-28T08:44:47.727Z'),
      ascending: true });
    expect(timelineQuery(new URLSearchParams('max_id=alice')).before).toBeUndefined();
  });

  it('links the older page (max_id of the last) and the newer one (min_id of the first), keeping other parameters', (): void => {
    const target = Operation.parseTarget('https://pod.example', `/api/v1/timelines/public?local=true&max_id=${NEWER}&limit=2`)!;
    expect(linkHeader(target, [ NEWER, OLDER ])).toEqual({ link:
      `<https://pod.example/api/v1/timelines/public?local=true&limit=2&max_id=${OLDER}>; rel="next", ` +
      `<https://pod.example/api/v1/timelines/public?local=true&limit=2&min_id=${NEWER}>; rel="prev"` });
    expect(linkHeader(target, [])).toEqual({});
  });
});
