import type { ResourceStore } from '@solid/community-server';
import { MediaStore } from '../../../../src/plugins/media/MediaStore';
import type { ResourceFiles } from '../../../../src/storage/ResourceFiles';
import { fileMetadata } from '../../../../src/storage/ResourceFiles';
import { FEDPOD_NS as FEDPOD, RDF_TYPE } from '../../../../src/storage/StoreVocabulary';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../../support/embeddedGraphs';

const BASE = 'https://pod.example/';
const AS = 'https://www.w3.org/ns/activitystreams#';
const ALICE = `${BASE}actors/alice`;
const ID = '01890a5d-ac96-774b-bcce-b302099a8057';
const UPLOAD = `${BASE}pods/alice/media/${ID}`;
const THUMBNAIL = `${UPLOAD}-small.jpg`;
const POST = `${BASE}objects/note`;

describe('MediaStore.recordWith (on the embedded store)', () => {
  let graphs: EmbeddedGraphs;
  let media: MediaStore;

  beforeAll(async() => {
    graphs = await startEmbeddedGraphs(BASE);
    media = new MediaStore({ baseUrl: BASE, graphs: graphs.resources, files: {} as ResourceFiles, resources: {} as ResourceStore });
    await graphs.put(UPLOAD, [
      [ RDF_TYPE, `${AS}Image`, 'iri' ], [ `${AS}mediaType`, 'image/jpeg', 'literal' ], [ `${AS}url`, `${UPLOAD}.jpg`, 'iri' ],
      [ `${AS}attributedTo`, ALICE, 'iri' ], [ `${AS}name`, 'A cat', 'literal' ], [ `${FEDPOD}preview`, THUMBNAIL, 'iri' ],
      [ `${FEDPOD}attachedTo`, POST, 'iri' ],
    ]);
    await graphs.put(POST, [ [ RDF_TYPE, `${AS}Note`, 'iri' ], [ `${AS}attributedTo`, ALICE, 'iri' ], [ `${AS}content`, 'Hello', 'literal' ] ]);
    await graphs.resources.writeMetadata(THUMBNAIL, fileMetadata(THUMBNAIL, { name: 'thumbnail', size: 3 }, 'image/jpeg'));
  });

  afterAll(async() => {
    await graphs.stop();
  });

  it('reads a file\'s description brief: what serving it and checking its reader need, and the post\'s addressing', async() => {
    const both = await media.recordWith(THUMBNAIL, POST, [ `${AS}attributedTo`, RDF_TYPE ], true);
    expect(both?.found.record).toEqual(expect.objectContaining({ iri: UPLOAD, kind: 'image', url: `${UPLOAD}.jpg`, owner: ALICE,
      previewUrl: THUMBNAIL, attachedTo: POST }));
    expect(both?.found.record.description).toBeUndefined();
    expect(both?.found.file).toEqual({ name: 'thumbnail', type: 'image/jpeg', size: 3 });
    expect(both?.other.map((entry): string => entry.predicate.value).sort()).toEqual([ `${AS}attributedTo`, RDF_TYPE ].sort());
  });

  it('reads a file\'s description whole unless asked brief, and a description always whole', async() => {
    expect((await media.recordOf(THUMBNAIL))?.record.description).toBe('A cat');
    expect((await media.recordOf(UPLOAD, true))?.record).toEqual(expect.objectContaining({ description: 'A cat', mediaType: 'image/jpeg' }));
  });

  it('finds no record for a file the description does not name, brief or not', async() => {
    await graphs.resources.writeMetadata(`${UPLOAD}.png`, fileMetadata(`${UPLOAD}.png`, { name: 'other', size: 3 }, 'image/png'));
    expect(await media.recordOf(`${UPLOAD}.png`, true)).toBeUndefined();
    expect(await media.recordOf(`${UPLOAD}.png`)).toBeUndefined();
  });
});
