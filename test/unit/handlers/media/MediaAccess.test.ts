import type { ResourceStore } from '@solid/community-server';
import { MEDIA_READ, MediaAccess } from '../../../../src/handlers/media/MediaAccess';
import { AudienceRules } from '../../../../src/plugins/activitypub/AudienceRules';
import { MediaStore } from '../../../../src/plugins/media/MediaStore';
import type { ResourceFiles } from '../../../../src/storage/ResourceFiles';
import { fileMetadata } from '../../../../src/storage/ResourceFiles';
import { FEDPOD_NS as FEDPOD, RDF_TYPE } from '../../../../src/storage/StoreVocabulary';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../../support/embeddedGraphs';
import { accessRequest, statusOf } from '../access/support';

const BASE = 'https://pod.example/';
const AS = 'https://www.w3.org/ns/activitystreams#';
const ALICE = { webId: `${BASE}actors/alice`, username: 'alice' };
const BOB = { webId: `${BASE}actors/bob`, username: 'bob' };
const CAROL = { webId: `${BASE}actors/carol`, username: 'carol' };
const ID = '01890a5d-ac96-774b-bcce-b302099a8057';
const UPLOAD = `${BASE}pods/alice/media/${ID}`;
const THUMBNAIL = `${UPLOAD}-small.jpg`;

describe('MediaAccess (on the embedded store)', () => {
  let graphs: EmbeddedGraphs;
  let audience: AudienceRules;
  let policy: MediaAccess;

  const post = async(name: string, to: string): Promise<string> => {
    const iri = `${BASE}objects/${name}`;
    await graphs.put(iri, [ [ RDF_TYPE, `${AS}Note`, 'iri' ], [ `${AS}attributedTo`, ALICE.webId, 'iri' ], [ `${AS}to`, to, 'iri' ] ]);
    return iri;
  };
  const describeUpload = async(attachedTo?: string): Promise<void> => {
    const attached: [string, string, 'iri'][] = attachedTo === undefined ? [] : [[ `${FEDPOD}attachedTo`, attachedTo, 'iri' ]];
    await graphs.put(UPLOAD, [
      [ RDF_TYPE, `${AS}Image`, 'iri' ], [ `${AS}url`, `${UPLOAD}.jpg`, 'iri' ], [ `${AS}attributedTo`, ALICE.webId, 'iri' ],
      [ `${FEDPOD}preview`, THUMBNAIL, 'iri' ],
      ...attached,
    ]);
  };
  const read = async(agent: object, target = THUMBNAIL): Promise<number> =>
    statusOf(policy.authorize(accessRequest('GET', target, agent, { user: 'alice', name: target.slice(target.lastIndexOf('/') + 1) })));

  beforeAll(async() => {
    graphs = await startEmbeddedGraphs(BASE);
    audience = new AudienceRules(graphs.resources, graphs.collections, BASE);
    const media = new MediaStore({ baseUrl: BASE, graphs: graphs.resources, files: {} as ResourceFiles, resources: {} as ResourceStore });
    policy = new MediaAccess(media, audience);
    await graphs.resources.writeMetadata(THUMBNAIL, fileMetadata(THUMBNAIL, { name: 'thumbnail', size: 3 }, 'image/jpeg'));
  });

  afterAll(async() => {
    await graphs.stop();
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('keeps an unattached upload its uploader\'s', async() => {
    await describeUpload();
    expect(await read({})).toBe(404);
    expect(await read(CAROL)).toBe(404);
    expect(await read(ALICE)).toBe(200);
  });

  it('reads the upload and a public post in one store query once it has seen which post it is attached to', async() => {
    await describeUpload(await post('public', `${AS}Public`));
    expect(await read(CAROL)).toBe(200);
    const both = jest.spyOn(graphs.resources, 'readDataAndMetadata');
    const others = [ 'read', 'readData', 'readMetadata', 'readDataMany' ] as const;
    const singles = others.map((name): jest.SpyInstance => jest.spyOn(graphs.resources, name));
    const postRead = jest.spyOn(audience, 'read');
    const operation = accessRequest('GET', THUMBNAIL, {}, { user: 'alice' });
    expect(await statusOf(policy.authorize(operation))).toBe(200);
    expect(MEDIA_READ.get(operation)).toMatchObject({ record: { iri: UPLOAD }, file: { name: 'thumbnail', type: 'image/jpeg', size: 3 }});
    expect(both).toHaveBeenCalledTimes(1);
    expect(both).toHaveBeenCalledWith([ UPLOAD, `${BASE}objects/public` ], [ THUMBNAIL ], expect.any(Map));
    for (const single of singles) {
      expect(single).not.toHaveBeenCalled();
    }
    expect(postRead).not.toHaveBeenCalled();
  });

  it('checks the post afresh each time: deleted, its media is the uploader\'s alone', async() => {
    const iri = await post('gone', `${AS}Public`);
    await describeUpload(iri);
    expect(await read({})).toBe(200);
    await graphs.put(iri, [ [ RDF_TYPE, `${AS}Tombstone`, 'iri' ] ]);
    expect(await read({})).toBe(404);
    await graphs.resources.delete(iri);
    expect(await read(CAROL)).toBe(404);
    expect(await read(ALICE)).toBe(200);
  });

  it('keeps a direct message\'s media its addressees\'', async() => {
    await describeUpload(await post('direct', BOB.webId));
    for (let round = 0; round < 2; round++) {
      expect(await read(BOB)).toBe(200);
      expect(await read(CAROL)).toBe(404);
      expect(await read({})).toBe(404);
    }
  });

  it('follows the description when it names another post than the one remembered', async() => {
    await describeUpload(await post('first', `${AS}Public`));
    expect(await read({})).toBe(200);
    await describeUpload(await post('second', BOB.webId));
    expect(await read({})).toBe(404);
    expect(await read(BOB)).toBe(200);
    await describeUpload();
    expect(await read(BOB)).toBe(404);
  });
});
