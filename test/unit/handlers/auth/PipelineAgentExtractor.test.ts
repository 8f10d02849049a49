import type { HttpRequest } from '@solid/community-server';
import { PassThrough } from 'node:stream';
import { ServerResponse } from 'node:http';
import { PipelineAgentExtractor } from '../../../../src/handlers/auth/PipelineAgentExtractor';
import type { Agent } from '../../../../src/handlers/http/Agent';
import { Operation } from '../../../../src/handlers/http/Operation';

function request(): HttpRequest {
  return Object.assign(new PassThrough(), { method: 'GET', url: '/x', headers: { authorization: 'DPoP token' }}) as unknown as HttpRequest;
}

/** A request with the operation the pipeline made of it, authenticated as `agent`. */
function authenticated(agent: Agent): HttpRequest {
  const made = request();
  new Operation({ request: made, response: new ServerResponse(made), target: Operation.parseTarget('https://pod.example', '/x')!, agent })
    .bind(made);
  return made;
}

describe('PipelineAgentExtractor', (): void => {
  const extractor = new PipelineAgentExtractor();

  it('leaves a request the pipeline has not authenticated to the next extractor', async(): Promise<void> => {
    await expect(extractor.canHandle(request())).rejects.toThrow('did not go through the pipeline');
  });

  it('answers with the pipeline agent WebID, and with no agent for an anonymous request', async(): Promise<void> => {
    const known = authenticated({ webId: 'https://pod.example/actors/alice', username: 'alice' });
    await expect(extractor.canHandle(known)).resolves.toBeUndefined();
    expect(await extractor.handle(known)).toEqual({ agent: { webId: 'https://pod.example/actors/alice' }});
    const anonymous = authenticated({});
    await expect(extractor.canHandle(anonymous)).resolves.toBeUndefined();
    expect(await extractor.handle(anonymous)).toEqual({});
  });
});
