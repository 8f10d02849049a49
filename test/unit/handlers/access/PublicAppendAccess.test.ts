import type { ServerResponse } from 'node:http';
import { PublicAppendAccess } from '../../../../src/handlers/access/PublicAppendAccess';
import { OwnerStore } from '../../../../src/storage/OwnerStore';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../../support/embeddedGraphs';
import { accessRequest, statusOf } from './support';

const BASE = 'https://pod.example/';
const OWNER = { webId: 'https://id.example/owner#me' };
const STRANGER = { webId: 'https://id.example/stranger#me' };

describe('PublicAppendAccess (on the embedded store)', () => {
  let graphs: EmbeddedGraphs;
  let owners: OwnerStore;
  let policy: PublicAppendAccess;

  beforeAll(async() => {
    graphs = await startEmbeddedGraphs(BASE);
    owners = new OwnerStore(graphs.client);
    policy = new PublicAppendAccess(BASE, graphs.resources, owners, [ 'notes/' ]);
    await graphs.put(`${BASE}notes/`, []);
    await graphs.put(`${BASE}notes/anonymous`, [ [ 'urn:p', 'x', 'literal' ] ], `${BASE}notes/`);
  });

  afterAll(async() => {
    await graphs.stop();
  });

  it('lets anyone read and add under the append containers, and nobody write elsewhere', async() => {
    expect(await statusOf(policy.authorize(accessRequest('GET', `${BASE}anything`)))).toBe(200);
    expect(await statusOf(policy.authorize(accessRequest('POST', `${BASE}notes/`)))).toBe(200);
    expect(await statusOf(policy.authorize(accessRequest('POST', `${BASE}notes`)))).toBe(200);
    expect(await statusOf(policy.authorize(accessRequest('PUT', `${BASE}notes/new`)))).toBe(200);
    expect(await statusOf(policy.authorize(accessRequest('POST', `${BASE}spam/`)))).toBe(401);
    expect(await statusOf(policy.authorize(accessRequest('PUT', `${BASE}spam/file`, STRANGER)))).toBe(403);
    expect(await statusOf(policy.authorize(accessRequest('PUT', `${BASE}notes/`)))).toBe(401);
  });

  it('keeps what was created anonymously as it is', async() => {
    for (const method of [ 'PUT', 'PATCH', 'DELETE' ]) {
      expect(await statusOf(policy.authorize(accessRequest(method, `${BASE}notes/anonymous`)))).toBe(401);
      expect(await statusOf(policy.authorize(accessRequest(method, `${BASE}notes/anonymous`, STRANGER)))).toBe(403);
    }
    expect(await statusOf(policy.authorize(accessRequest('PUT', `${BASE}notes/anonymous.acl`)))).toBe(401);
  });

  it('makes the creator of a new resource its owner, who alone may change it then', async() => {
    const iri = `${BASE}notes/owned`;
    expect(await statusOf(policy.authorize(accessRequest('PUT', iri, OWNER)))).toBe(200);
    expect(await owners.ownerOf(iri)).toBe(OWNER.webId);
    await graphs.put(iri, [ [ 'urn:p', 'y', 'literal' ] ], `${BASE}notes/`);
    expect(await statusOf(policy.authorize(accessRequest('PUT', iri, STRANGER)))).toBe(403);
    expect(await statusOf(policy.authorize(accessRequest('DELETE', iri)))).toBe(401);
    expect(await statusOf(policy.authorize(accessRequest('PATCH', iri, OWNER)))).toBe(200);
    expect(await statusOf(policy.authorize(accessRequest('PUT', `${iri}.meta`, OWNER)))).toBe(200);
    expect(await statusOf(policy.authorize(accessRequest('DELETE', iri, OWNER)))).toBe(200);
  });

  it('records the owner of a POSTed resource from its Location before the 201 ends', async() => {
    const ended: string[] = [];
    let done!: () => void;
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    const response = {
      statusCode: 201,
      getHeader: (name: string): string | undefined => name === 'location' ? `${BASE}notes/posted` : undefined,
      end: (): void => {
        ended.push('end');
        done();
      },
    } as unknown as ServerResponse;
    await policy.authorize(accessRequest('POST', `${BASE}notes/`, OWNER, {}, response));
    response.end();
    // The answer waits for the owner record (a store update): it cannot have ended yet.
    expect(ended).toEqual([]);
    await finished;
    expect(await owners.ownerOf(`${BASE}notes/posted`)).toBe(OWNER.webId);
  });

  it('lets a DELETE of nothing through to the handler\'s 404', async() => {
    expect(await statusOf(policy.authorize(accessRequest('DELETE', `${BASE}notes/missing`)))).toBe(200);
  });
});
