import { WebAclAccess } from '../../../../src/handlers/access/WebAclAccess';
import { WebAclAuthorizer } from '../../../../src/plugins/ldp/WebAclAuthorizer';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../../support/embeddedGraphs';
import { accessRequest, statusOf } from './support';

const BASE = 'https://pod.example/';
const ACL = 'http://www.w3.org/ns/auth/acl#';
const TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const OWNER = { webId: 'https://id.example/owner#me' };
const STRANGER = { webId: 'https://id.example/stranger#me' };

describe('WebAclAccess (on the embedded store)', () => {
  let graphs: EmbeddedGraphs;
  let policy: WebAclAccess;

  beforeAll(async() => {
    graphs = await startEmbeddedGraphs(BASE);
    const rule = (id: string, predicate: string, who: string, modes: string[]): [string, string, string][] => [
      [ id, TYPE, `${ACL}Authorization` ], [ id, `${ACL}${predicate}`, who ], [ id, `${ACL}accessTo`, BASE ], [ id, `${ACL}default`, BASE ],
      ...modes.map((mode): [string, string, string] => [ id, `${ACL}mode`, `${ACL}${mode}` ]),
    ];
    await graphs.putTriples(`${BASE}.acl`, [
      ...rule(`${BASE}.acl#public`, 'agentClass', 'http://xmlns.com/foaf/0.1/Agent', [ 'Read' ]),
      ...rule(`${BASE}.acl#owner`, 'agent', OWNER.webId, [ 'Read', 'Write', 'Control' ]),
    ]);
    await graphs.put(`${BASE}notes/`, []);
    await graphs.put(`${BASE}notes/existing`, [ [ 'urn:p', 'x', 'literal' ] ], `${BASE}notes/`);
    policy = new WebAclAccess(new WebAclAuthorizer(BASE, graphs.resources), graphs.resources);
  });

  afterAll(async() => {
    await graphs.stop();
  });

  it.each([
    [ 'GET', 'notes/existing', {}, 200 ], [ 'HEAD', 'notes/', STRANGER, 200 ],
    [ 'POST', 'notes/', {}, 401 ], [ 'POST', 'notes/', STRANGER, 403 ], [ 'POST', 'notes/', OWNER, 200 ],
    [ 'PUT', 'notes/existing', STRANGER, 403 ], [ 'PUT', 'notes/existing', OWNER, 200 ], [ 'PUT', 'notes/new', OWNER, 200 ],
    [ 'PATCH', 'notes/new', {}, 401 ], [ 'DELETE', 'notes/existing', STRANGER, 403 ], [ 'DELETE', 'notes/existing', OWNER, 200 ],
    [ 'GET', 'notes/.acl', {}, 401 ], [ 'GET', 'notes/.acl', STRANGER, 403 ], [ 'PUT', 'notes/existing.acl', OWNER, 200 ],
    [ 'GET', 'notes/existing.meta', {}, 200 ], [ 'PUT', 'notes/existing.meta', STRANGER, 403 ],
    [ 'OPTIONS', 'notes/', {}, 200 ],
  ])('%s %s by %j: %i', async(method, path, agent, status) => {
    expect(await statusOf(policy.authorize(accessRequest(method, `${BASE}${path}`, agent)))).toBe(status);
  });

  it('gives the answer the WAC-Allow and Link rel="acl" headers of its decision', async() => {
    const input = accessRequest('GET', `${BASE}notes/existing`, OWNER);
    await policy.authorize(input);
    expect(input.access.headers).toEqual({
      'wac-allow': 'user="read write append control",public="read"',
      link: `<${BASE}notes/existing.acl>; rel="acl"`,
    });
  });
});
