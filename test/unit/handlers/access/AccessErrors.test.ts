import { refusal } from '../../../../src/handlers/access/AccessErrors';

describe('AccessErrors', (): void => {
  describe('refusal', (): void => {
    it('answers an anonymous agent 401 authentication_required, asking for a bearer token', (): void => {
      const error = refusal({}, 'Only the owner writes here.');
      expect(error.statusCode).toBe(401);
      expect(error.errorCode).toBe('authentication_required');
      expect(error.message).toBe('Only the owner writes here. Send credentials: "Authorization: Bearer <token>".');
      expect(error.headers).toEqual({ 'www-authenticate': 'Bearer' });
    });

    it('answers a known agent 403 forbidden with the message as given', (): void => {
      for (const agent of [ { webId: 'https://pod.example/actors/alice', username: 'alice' }, { remoteActor: 'https://remote.example/users/bob' } ]) {
        const error = refusal(agent, 'Only the owner writes here.');
        expect(error.statusCode).toBe(403);
        expect(error.errorCode).toBe('forbidden');
        expect(error.message).toBe('Only the owner writes here.');
      }
    });
  });
});
