import { LocalUserAccess } from '../../../../src/handlers/access/LocalUserAccess';
import { accessRequest, statusOf } from './support';

describe('LocalUserAccess', (): void => {
  const access = new LocalUserAccess();
  const target = 'https://pod.example/auth/clients';

  it('lets a local user through, whatever the method', async(): Promise<void> => {
    const agent = { webId: 'https://pod.example/actors/alice', username: 'alice' };
    for (const method of [ 'GET', 'POST', 'DELETE' ]) {
      expect(await statusOf(access.authorize(accessRequest(method, target, agent)))).toBe(200);
    }
  });

  it('asks an anonymous caller for credentials (401) and refuses other agents (403)', async(): Promise<void> => {
    expect(await statusOf(access.authorize(accessRequest('GET', target)))).toBe(401);
    expect(await statusOf(access.authorize(accessRequest('POST', target, { webId: 'https://elsewhere.example/profile#me' })))).toBe(403);
    expect(await statusOf(access.authorize(accessRequest('GET', target, { remoteActor: 'https://social.example/users/eve' })))).toBe(403);
  });

  it('lets a CORS preflight through', async(): Promise<void> => {
    expect(await statusOf(access.authorize(accessRequest('OPTIONS', target)))).toBe(200);
  });
});
