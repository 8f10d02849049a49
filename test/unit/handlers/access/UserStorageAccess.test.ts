import type { AccessPolicy } from '../../../../src/handlers/access/AccessPolicy';
import { wacAllow } from '../../../../src/handlers/access/AccessPolicy';
import type { Operation } from '../../../../src/handlers/http/Operation';
import { UserStorageAccess } from '../../../../src/handlers/access/UserStorageAccess';
import { UserStorageLocationStrategy } from '../../../../src/plugins/ldp/UserStorageLocationStrategy';
import { forbidden } from '../../../../src/util/HttpErrors';
import { accessRequest, statusOf } from './support';

const BASE = 'https://pod.example/';
const OWNER = { webId: `${BASE}actors/root` };

/** Stands in for WebACL: the owner may do everything (as the root ACL's owner may), anyone else read; records what it was asked. */
class OwnerAcl implements AccessPolicy {
  public readonly asked: string[] = [];
  public async authorize(operation: Operation): Promise<void> {
    const { method, agent } = operation;
    const target = operation.target.iri;
    this.asked.push(`${method} ${target}`);
    const owner = agent.webId === OWNER.webId;
    operation.decide({ headers: { 'wac-allow': wacAllow(owner ? [ 'read', 'write', 'append', 'control' ] : [ 'read' ], [ 'read' ]),
      link: `<${target}.acl>; rel="acl"` }});
    if (!owner && method !== 'GET' && method !== 'HEAD') {
      throw forbidden('WebACL says no.', 'forbidden');
    }
  }
}

describe('UserStorageAccess', () => {
  let acl: OwnerAcl;
  let policy: UserStorageAccess;

  beforeEach(() => {
    acl = new OwnerAcl();
    policy = new UserStorageAccess(new UserStorageLocationStrategy(BASE, 'pods/'), acl, 'Not here.');
  });

  it('leaves everything inside a user\'s storage to WebACL, ACL documents included', async() => {
    for (const target of [ `${BASE}pods/alice/`, `${BASE}pods/alice/notes/a`, `${BASE}pods/alice/.acl` ]) {
      for (const method of [ 'GET', 'PUT', 'POST', 'PATCH', 'DELETE' ]) {
        expect(await statusOf(policy.authorize(accessRequest(method, target, OWNER)))).toBe(200);
        expect(await statusOf(policy.authorize(accessRequest(method, target, { webId: `${BASE}actors/bob` }))))
          .toBe(method === 'GET' ? 200 : 403);
      }
    }
    const request = accessRequest('GET', `${BASE}pods/alice/`, OWNER);
    await policy.authorize(request);
    expect(request.access.headers?.['wac-allow']).toBe('user="read write append control",public="read"');
  });

  it('refuses every write elsewhere, even to whom WebACL gives Write: 401 anonymous, 403 otherwise', async() => {
    for (const target of [ BASE, `${BASE}objects/`, `${BASE}activities/x`, `${BASE}actors/alice/extra`, `${BASE}.acl`,
      `${BASE}pods/`, `${BASE}pods/.acl`, `${BASE}pods/alice`, `${BASE}spam/file` ]) {
      for (const method of [ 'PUT', 'POST', 'PATCH', 'DELETE' ]) {
        expect(`${method} ${target} ${await statusOf(policy.authorize(accessRequest(method, target, OWNER)))}`).toBe(`${method} ${target} 403`);
        expect(`${method} ${target} ${await statusOf(policy.authorize(accessRequest(method, target)))}`).toBe(`${method} ${target} 401`);
      }
    }
    expect(acl.asked).toEqual([]);
    await expect(policy.authorize(accessRequest('PUT', `${BASE}objects/x`, OWNER))).rejects.toThrow('Not here.');
  });

  it('lets WebACL decide reads elsewhere, and tells even the owner that only reading is possible there', async() => {
    const request = accessRequest('GET', `${BASE}objects/`, OWNER);
    expect(await statusOf(policy.authorize(request))).toBe(200);
    expect(acl.asked).toEqual([ `GET ${BASE}objects/` ]);
    expect(request.access.headers).toEqual({ 'wac-allow': 'user="read",public="read"', link: `<${BASE}objects/.acl>; rel="acl"` });
  });
});
