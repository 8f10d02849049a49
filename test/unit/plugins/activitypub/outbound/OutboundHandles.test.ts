import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import type { WebFingerResolver } from '../../../../../src/plugins/activitypub/fetch/WebFingerResolver';
import { OutboundHandles } from '../../../../../src/plugins/activitypub/outbound/OutboundHandles';
import { FedpodHttpError } from '../../../../../src/util/HttpErrors';

const BASE = 'https://pod.example/';
const ALICE = `${BASE}actors/alice`;
const BOB = `${BASE}actors/bob`;
const CAROL = 'https://social.example/users/carol';
const DAVE = 'https://other.example/users/dave';
const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

describe('OutboundHandles', (): void => {
  const known: Record<string, string> = { bob: BOB, 'bob@pod.example': BOB, 'carol@social.example': CAROL };
  const resolver = {
    host: 'pod.example',
    resolve: jest.fn(async(handle: string): Promise<string> => {
      const key = handle.replace(/^acct:|^@/u, '').toLowerCase();
      if (known[key]) {
        return known[key];
      }
      throw new FedpodHttpError(422, 'unresolvable_handle', `no ${handle}`);
    }),
  } as unknown as WebFingerResolver;
  const handles = new OutboundHandles(BASE, resolver);

  function create(object: Json): Json {
    return { type: 'Create', actor: ALICE, to: object.to, cc: object.cc, object: { type: 'Note', ...object }};
  }

  it('resolves the handle a Follow names, in its object and addressing', async(): Promise<void> => {
    const follow: Json = { type: 'Follow', object: 'acct:carol@social.example', to: [ 'acct:carol@social.example' ]};
    await handles.prepare(follow, ALICE);
    expect(follow).toEqual({ type: 'Follow', object: CAROL, to: [ CAROL ]});
  });

  it('refuses a Follow of a handle that names no actor, and leaves IRIs alone', async(): Promise<void> => {
    await expect(handles.prepare({ type: 'Follow', object: '@nobody@social.example' }, ALICE)).rejects.toMatchObject({ statusCode: 422 });
    const follow: Json = { type: 'Follow', object: DAVE };
    await handles.prepare(follow, ALICE);
    expect(follow.object).toBe(DAVE);
  });

  it('tags, links and addresses (cc) the mentions of a public post; an unknown one stays text', async(): Promise<void> => {
    const activity = create({ content: '<p>@bob @carol@social.example @nobody@x.example #Tag</p>', to: [ PUBLIC ], cc: [ `${ALICE}/followers` ]});
    await handles.prepare(activity, ALICE);
    const note = activity.object as Json;
    expect(note.tag).toEqual([
      { type: 'Mention', href: BOB, name: '@bob@pod.example' },
      { type: 'Mention', href: CAROL, name: '@carol@social.example' },
      { type: 'Hashtag', href: `${BASE}tags/tag`, name: '#Tag' },
    ]);
    expect(note.content).toContain('@nobody@x.example');
    expect(note.content).toContain(`<a href="${CAROL}" class="u-url mention">`);
    expect(note.cc).toEqual([ `${ALICE}/followers`, BOB, CAROL ]);
    expect(activity.cc).toEqual([ `${ALICE}/followers`, BOB, CAROL ]);
    expect(note.to).toEqual([ PUBLIC ]);
  });

  it('addresses the mentioned in `to` of a direct post, a client\'s own Mention tag too, once', async(): Promise<void> => {
    const activity = create({ content: 'hi @bob', to: [ BOB ], tag: [{ type: 'Mention', href: DAVE, name: '@dave@other.example' }]});
    await handles.prepare(activity, ALICE);
    const note = activity.object as Json;
    expect(note.to).toEqual([ BOB, DAVE ]);
    expect(note.cc).toBeUndefined();
    expect(note.tag).toEqual([{ type: 'Mention', href: DAVE, name: '@dave@other.example' }, { type: 'Mention', href: BOB, name: '@bob@pod.example' }]);
  });

  it('links the contentMap too, and does not tag a mention or hashtag twice', async(): Promise<void> => {
    const activity = create({ content: '#a @bob', contentMap: { en: '#a @bob' }, to: [ PUBLIC ],
      tag: [{ type: 'Hashtag', href: `${BASE}tags/a`, name: '#a' }]});
    await handles.prepare(activity, ALICE);
    const note = activity.object as Json;
    expect((note.contentMap as Json).en).toBe(note.content);
    expect(note.tag).toHaveLength(2);
  });
});
