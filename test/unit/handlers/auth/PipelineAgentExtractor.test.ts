import type { HttpRequest } from '@solid/community-server';
import { PassThrough } from 'node:stream';
import { PipelineAgentExtractor } from '../../../../src/handlers/auth/PipelineAgentExtractor';
import { setAgent } from '../../../../src/handlers/http/Agent';

function request(): HttpRequest {
  return Object.assign(new PassThrough(), { method: 'GET', headers: { authorization: 'DPoP token' }}) as unknown as HttpRequest;
}

describe('PipelineAgentExtractor', (): void => {
  const extractor = new PipelineAgentExtractor();

  it('leaves a request the pipeline has not authenticated to the next extractor', async(): Promise<void> => {
    await expect(extractor.canHandle(request())).rejects.toThrow('did not go through the pipeline');
  });

  it('answers with the pipeline agent WebID, and with no agent for an anonymous request', async(): Promise<void> => {
    const known = request();
    setAgent(known, { webId: 'https://pod.example/actors/alice', username: 'alice' });
    await expect(extractor.canHandle(known)).resolves.toBeUndefined();
    expect(await extractor.handle(known)).toEqual({ agent: { webId: 'https://pod.example/actors/alice' }});
    const anonymous = request();
    setAgent(anonymous, {});
    expect(await extractor.handle(anonymous)).toEqual({});
  });
});
