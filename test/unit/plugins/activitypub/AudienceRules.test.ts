import { AudienceRules } from '../../../../src/plugins/activitypub/AudienceRules';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../../support/embeddedGraphs';

const BASE = 'https://pod.example/';
const AS = 'https://www.w3.org/ns/activitystreams#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const ALICE = `${BASE}actors/alice`;
const BOB = `${BASE}actors/bob`;
const CAROL = `${BASE}actors/carol`;
const REMOTE = 'https://remote.example/users/dan';

describe('AudienceRules (on the embedded store)', () => {
  let graphs: EmbeddedGraphs;
  let rules: AudienceRules;

  beforeAll(async() => {
    graphs = await startEmbeddedGraphs(BASE);
    rules = new AudienceRules(graphs.resources, graphs.collections, BASE);
    await graphs.collections.add(`${ALICE}/followers`, BOB);
    await graphs.put(`${BASE}objects/public`, [ [ `${AS}attributedTo`, ALICE, 'iri' ], [ `${AS}cc`, `${AS}Public`, 'iri' ] ]);
    await graphs.put(`${BASE}objects/followers`, [ [ `${AS}attributedTo`, ALICE, 'iri' ], [ `${AS}to`, `${ALICE}/followers`, 'iri' ] ]);
    await graphs.put(`${BASE}objects/direct`, [ [ `${AS}attributedTo`, ALICE, 'iri' ], [ `${AS}bcc`, REMOTE, 'iri' ] ]);
    await graphs.put(`${BASE}activities/follow`, [ [ `${AS}actor`, ALICE, 'iri' ], [ `${AS}content`, 'no addressing', 'literal' ] ]);
    await graphs.put(`${BASE}objects/gone`, [ [ RDF_TYPE, `${AS}Tombstone`, 'iri' ] ]);
  });

  afterAll(async() => {
    await graphs.stop();
  });

  async function readers(name: string): Promise<string[]> {
    const { addressing } = (await rules.read(`${BASE}${name}`))!;
    const allowed: string[] = [];
    for (const [ label, reader ] of [ [ 'anonymous', undefined ], [ 'alice', ALICE ], [ 'bob', BOB ], [ 'carol', CAROL ], [ 'remote', REMOTE ] ]) {
      if (await rules.mayRead(addressing, reader)) {
        allowed.push(label!);
      }
    }
    return allowed;
  }

  it('lets anyone read what is addressed to Public (cc: unlisted too)', async() => {
    expect(await readers('objects/public')).toEqual([ 'anonymous', 'alice', 'bob', 'carol', 'remote' ]);
  });

  it('lets the author\'s followers read a followers-only object', async() => {
    expect(await readers('objects/followers')).toEqual([ 'alice', 'bob' ]);
  });

  it('lets addressees read a direct object, blind copies included', async() => {
    expect(await readers('objects/direct')).toEqual([ 'alice', 'remote' ]);
  });

  it('lets only the actor read an activity addressed to nobody', async() => {
    expect(await readers('activities/follow')).toEqual([ 'alice' ]);
  });

  it('shows a Tombstone to anyone', async() => {
    expect(await readers('objects/gone')).toEqual([ 'anonymous', 'alice', 'bob', 'carol', 'remote' ]);
  });

  it('finds nothing where nothing is stored', async() => {
    expect(await rules.read(`${BASE}objects/missing`)).toBeUndefined();
  });

  it('names the recipients that admit a reader in a collection page', async() => {
    expect(await rules.recipientsAdmitting(ALICE, undefined)).toEqual([ `${AS}Public` ]);
    expect(await rules.recipientsAdmitting(ALICE, CAROL)).toEqual([ `${AS}Public`, CAROL ]);
    expect(await rules.recipientsAdmitting(ALICE, BOB)).toEqual([ `${AS}Public`, BOB, `${ALICE}/followers` ]);
  });
});
