import type { Agent } from '../../../../src/handlers/http/Agent';
import { agentIri, ANONYMOUS, webIdAgent } from '../../../../src/handlers/http/Agent';
import { ActorUrls } from '../../../../src/plugins/activitypub/ActorUrls';

const ALICE: Agent = { webId: 'https://pod.example/actors/alice', username: 'alice' };

describe('Agent', (): void => {
  it('has one frozen anonymous agent', (): void => {
    expect(ANONYMOUS).toEqual({});
    expect(Object.isFrozen(ANONYMOUS)).toBe(true);
  });

  it('identifies an agent by its WebID, else its remote actor', (): void => {
    expect(agentIri(ALICE)).toBe(ALICE.webId);
    expect(agentIri({ remoteActor: 'https://r.example/u/bob' })).toBe('https://r.example/u/bob');
    expect(agentIri({ webId: 'https://a.example/me', remoteActor: 'https://r.example/u/bob' })).toBe('https://a.example/me');
    expect(agentIri({})).toBeUndefined();
  });

  it('makes a local actor\'s WebID its user, and any other WebID just a WebID', (): void => {
    const urls = new ActorUrls('https://pod.example/');
    const local = webIdAgent(urls, 'https://pod.example/actors/alice');
    expect(local).toEqual(ALICE);
    expect(Object.isFrozen(local)).toBe(true);
    expect(webIdAgent(urls, 'https://solid.example/profile/card#me')).toEqual({ webId: 'https://solid.example/profile/card#me' });
  });
});
