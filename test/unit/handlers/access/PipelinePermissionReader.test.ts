import type { AccessMap } from '@solid/community-server';
import { AccessMode, IdentifierSetMultiMap } from '@solid/community-server';
import { PipelinePermissionReader } from '../../../../src/handlers/access/PipelinePermissionReader';
import { ReadDecisions } from '../../../../src/handlers/access/ReadDecisions';
import type { Agent } from '../../../../src/handlers/http/Agent';

describe('PipelinePermissionReader and ReadDecisions', (): void => {
  const base = 'https://pod.example/';
  const asked: [string, Agent][] = [];
  const decisions = new ReadDecisions();
  const reader = new PipelinePermissionReader(base, decisions);

  function modes(...paths: string[]): AccessMap {
    return new IdentifierSetMultiMap<AccessMode>(paths.map((path): [{ path: string }, AccessMode] => [{ path }, AccessMode.read ]));
  }

  it('refuses to decide before a pipeline is attached', async(): Promise<void> => {
    await expect(reader.handle({ credentials: {}, requestedModes: modes(`${base}a`) })).rejects.toThrow('No request pipeline');
  });

  it('grants read exactly where the pipeline would serve a GET to the same agent, and nothing else', async(): Promise<void> => {
    decisions.attach({ mayRead: async(iri: string, agent: Agent): Promise<boolean> => {
      asked.push([ iri, agent ]);
      return iri.endsWith('/public') || (iri.endsWith('/private') && agent.username === 'alice');
    } });
    const alice = await reader.handle({ credentials: { agent: { webId: `${base}actors/alice` }},
      requestedModes: modes(`${base}x/public`, `${base}x/private`) });
    expect(alice.get({ path: `${base}x/public` })).toEqual({ read: true });
    expect(alice.get({ path: `${base}x/private` })).toEqual({ read: true });
    expect(asked.at(-1)![1]).toEqual({ webId: `${base}actors/alice`, username: 'alice' });
    const stranger = await reader.handle({ credentials: { agent: { webId: 'https://elsewhere.example/me' }},
      requestedModes: modes(`${base}x/private`) });
    expect(stranger.get({ path: `${base}x/private` })).toEqual({ read: false });
    expect(asked.at(-1)![1]).toEqual({ webId: 'https://elsewhere.example/me' });
    const anonymous = await reader.handle({ credentials: {}, requestedModes: modes(`${base}x/private`) });
    expect(anonymous.get({ path: `${base}x/private` })).toEqual({ read: false });
    expect(asked.at(-1)![1]).toEqual({});
  });
});
