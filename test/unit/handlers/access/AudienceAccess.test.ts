import { AudienceAccess } from '../../../../src/handlers/access/AudienceAccess';
import { AudienceRules } from '../../../../src/plugins/activitypub/AudienceRules';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../../support/embeddedGraphs';
import { accessRequest, statusOf } from './support';

const BASE = 'https://pod.example/';
const AS = 'https://www.w3.org/ns/activitystreams#';
const ALICE = { webId: `${BASE}actors/alice`, username: 'alice' };
const BOB = { webId: `${BASE}actors/bob`, username: 'bob' };
const CAROL = { webId: `${BASE}actors/carol`, username: 'carol' };

describe('AudienceAccess (on the embedded store)', () => {
  let graphs: EmbeddedGraphs;
  let policy: AudienceAccess;

  beforeAll(async() => {
    graphs = await startEmbeddedGraphs(BASE);
    policy = new AudienceAccess(new AudienceRules(graphs.resources, graphs.collections, BASE));
    await graphs.put(`${BASE}objects/public`, [ [ `${AS}attributedTo`, ALICE.webId, 'iri' ], [ `${AS}to`, `${AS}Public`, 'iri' ] ]);
    await graphs.put(`${BASE}objects/direct`, [ [ `${AS}attributedTo`, ALICE.webId, 'iri' ], [ `${AS}to`, BOB.webId, 'iri' ] ]);
  });

  afterAll(async() => {
    await graphs.stop();
  });

  it.each([
    [ 'public', 'GET', {}, 200 ], [ 'public', 'GET', CAROL, 200 ],
    [ 'direct', 'GET', {}, 404 ], [ 'direct', 'HEAD', CAROL, 404 ], [ 'direct', 'GET', BOB, 200 ], [ 'direct', 'GET', ALICE, 200 ],
    [ 'direct', 'GET', { remoteActor: BOB.webId }, 200 ],
    [ 'public', 'PUT', {}, 401 ], [ 'public', 'DELETE', CAROL, 403 ], [ 'public', 'PUT', ALICE, 200 ],
    [ 'direct', 'DELETE', CAROL, 404 ], [ 'direct', 'PATCH', BOB, 403 ], [ 'direct', 'DELETE', ALICE, 200 ],
    [ 'direct', 'PUT', { remoteActor: ALICE.webId }, 403 ],
    [ 'missing', 'GET', {}, 200 ], [ 'missing', 'DELETE', {}, 401 ], [ 'missing', 'OPTIONS', {}, 200 ],
  ])('%s object, %s by %j: %i', async(name, method, agent, status) => {
    expect(await statusOf(policy.authorize(accessRequest(method, `${BASE}objects/${name}`, agent)))).toBe(status);
  });
});
