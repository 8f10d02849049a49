import { ReadOnlyAccess } from '../../../../src/handlers/access/ReadOnlyAccess';
import { accessRequest, statusOf } from './support';

describe('ReadOnlyAccess', () => {
  const policy = new ReadOnlyAccess('Managed by the server.');

  it('lets anyone read, and any method it does not know through to the handler', async() => {
    for (const method of [ 'GET', 'HEAD', 'OPTIONS', 'TRACE' ]) {
      expect(await statusOf(policy.authorize(accessRequest(method, 'https://pod.example/x')))).toBe(200);
    }
  });

  it('refuses every write: 401 anonymous, 403 to a known agent, saying where to go instead', async() => {
    for (const method of [ 'POST', 'PUT', 'PATCH', 'DELETE' ]) {
      expect(await statusOf(policy.authorize(accessRequest(method, 'https://pod.example/x')))).toBe(401);
      expect(await statusOf(policy.authorize(accessRequest(method, 'https://pod.example/x', { webId: 'https://pod.example/actors/a' })))).toBe(403);
      expect(await statusOf(policy.authorize(accessRequest(method, 'https://pod.example/x', { remoteActor: 'https://r.example/u' })))).toBe(403);
    }
    await expect(policy.authorize(accessRequest('PUT', 'https://pod.example/x'))).rejects.toThrow('Managed by the server.');
  });
});
