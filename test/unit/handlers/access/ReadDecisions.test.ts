import { ReadDecisions } from '../../../../src/handlers/access/ReadDecisions';
import type { Agent } from '../../../../src/handlers/http/Agent';

describe('ReadDecisions', (): void => {
  it('refuses to decide before a pipeline is attached', async(): Promise<void> => {
    await expect(new ReadDecisions().mayRead('https://pod.example/x', {})).rejects
      .toThrow('No request pipeline is attached to decide reads.');
  });

  it('asks the attached decider, with the IRI and agent as given', async(): Promise<void> => {
    const asked: [string, Agent][] = [];
    const decisions = new ReadDecisions();
    decisions.attach({ mayRead: async(iri, agent): Promise<boolean> => {
      asked.push([ iri, agent ]);
      return agent.username === 'alice';
    } });
    const alice = { webId: 'https://pod.example/actors/alice', username: 'alice' };
    expect(await decisions.mayRead('https://pod.example/alice/notes', alice)).toBe(true);
    expect(await decisions.mayRead('https://pod.example/alice/notes', {})).toBe(false);
    expect(asked).toEqual([ [ 'https://pod.example/alice/notes', alice ], [ 'https://pod.example/alice/notes', {}] ]);
  });

  it('follows the decider attached last', async(): Promise<void> => {
    const decisions = new ReadDecisions();
    decisions.attach({ mayRead: async(): Promise<boolean> => false });
    decisions.attach({ mayRead: async(): Promise<boolean> => true });
    expect(await decisions.mayRead('https://pod.example/x', {})).toBe(true);
  });
});
