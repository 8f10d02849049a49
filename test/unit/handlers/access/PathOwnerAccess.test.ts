import { PathOwnerAccess } from '../../../../src/handlers/access/PathOwnerAccess';
import { accessRequest, statusOf } from './support';

const TARGET = 'https://pod.example/actors/alice/outbox';
const ALICE = { webId: 'https://pod.example/actors/alice', username: 'alice' };
const BOB = { webId: 'https://pod.example/actors/bob', username: 'bob' };

describe('PathOwnerAccess', () => {
  it('lets only the user the path names through', async() => {
    const policy = new PathOwnerAccess();
    expect(await statusOf(policy.authorize(accessRequest('POST', TARGET, ALICE, { user: 'alice' })))).toBe(200);
    expect(await statusOf(policy.authorize(accessRequest('GET', TARGET, ALICE, { user: 'alice' })))).toBe(200);
    expect(await statusOf(policy.authorize(accessRequest('POST', TARGET, BOB, { user: 'alice' })))).toBe(403);
    expect(await statusOf(policy.authorize(accessRequest('GET', TARGET, {}, { user: 'alice' })))).toBe(401);
    expect(await statusOf(policy.authorize(accessRequest('GET', TARGET, { webId: 'https://id.example/me' }, { user: 'alice' })))).toBe(403);
    expect(await statusOf(policy.authorize(accessRequest('GET', TARGET, ALICE)))).toBe(403);
  });

  it('opens reads when asked, and answers anonymous writes with the status the route needs', async() => {
    const policy = new PathOwnerAccess(true, 403);
    expect(await statusOf(policy.authorize(accessRequest('GET', TARGET, {}, { user: 'alice' })))).toBe(200);
    expect(await statusOf(policy.authorize(accessRequest('POST', TARGET, {}, { user: 'alice' })))).toBe(403);
    expect(await statusOf(policy.authorize(accessRequest('OPTIONS', TARGET, {}, { user: 'alice' })))).toBe(200);
  });
});
