import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import type { Agent } from '../../../../src/handlers/http/Agent';
import { agentIri, agentOf, ANONYMOUS, deferAgent, hasAgent, resolveAgent, setAgent, webIdAgent } from '../../../../src/handlers/http/Agent';
import { ActorUrls } from '../../../../src/plugins/activitypub/ActorDocument';
import { unauthorized } from '../../../../src/util/HttpErrors';

function request(): IncomingMessage {
  return Object.assign(new PassThrough(), { method: 'GET', headers: {}}) as unknown as IncomingMessage;
}

const ALICE: Agent = { webId: 'https://pod.example/actors/alice', username: 'alice' };

describe('Agent', (): void => {
  it('knows a request\'s agent once set, and calls an unauthenticated request anonymous', (): void => {
    const asked = request();
    expect(agentOf(asked)).toBe(ANONYMOUS);
    expect(hasAgent(asked)).toBe(false);
    setAgent(asked, ALICE);
    expect(agentOf(asked)).toBe(ALICE);
    expect(hasAgent(asked)).toBe(true);
    expect(agentOf(request())).toEqual({});
    expect(Object.isFrozen(ANONYMOUS)).toBe(true);
  });

  it('resolves to the set agent when no check is deferred', async(): Promise<void> => {
    const asked = request();
    setAgent(asked, ALICE);
    await expect(resolveAgent(asked)).resolves.toBe(ALICE);
  });

  it('runs a deferred check once, on first need, and keeps its agent', async(): Promise<void> => {
    const asked = request();
    let checks = 0;
    const remote = { remoteActor: 'https://r.example/u/bob' };
    deferAgent(asked, async(): Promise<Agent> => {
      checks += 1;
      return remote;
    });
    expect(checks).toBe(0);
    expect(agentOf(asked)).toBe(ANONYMOUS);
    const [ first, second ] = await Promise.all([ resolveAgent(asked), resolveAgent(asked) ]);
    expect([ first, second ]).toEqual([ remote, remote ]);
    await resolveAgent(asked);
    expect(checks).toBe(1);
    expect(agentOf(asked)).toBe(remote);
  });

  it('rejects with a failed deferred check\'s error', async(): Promise<void> => {
    const asked = request();
    deferAgent(asked, async(): Promise<Agent> => {
      throw unauthorized('The HTTP signature is not valid.', 'invalid_signature');
    });
    await expect(resolveAgent(asked)).rejects.toMatchObject({ statusCode: 401, errorCode: 'invalid_signature' });
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
