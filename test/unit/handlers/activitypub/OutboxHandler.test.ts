import { OutboxHandler } from '../../../../src/handlers/activitypub/OutboxHandler';
import { badRequest } from '../../../../src/util/HttpErrors';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';
import { agentFromTestHeader, AS_USER, OutboxStandIn } from './support';

describe('OutboxHandler', (): void => {
  const NOTE = { type: 'Note', content: 'hello', to: 'https://www.w3.org/ns/activitystreams#Public' };
  let outbox: OutboxStandIn;
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    outbox = new OutboxStandIn();
    server = await serveHandler(new OutboxHandler('https://pod.example/', outbox.service(), 1000), agentFromTestHeader);
  });

  afterAll(async(): Promise<void> => {
    await server.close();
  });

  beforeEach((): void => {
    outbox.posted.length = 0;
    outbox.failWith = undefined;
  });

  async function post(path: string, body: string, user?: string): Promise<Response> {
    return fetch(`${server.base}${path}`, { method: 'POST', body,
      headers: { 'content-type': 'application/activity+json', ...user === undefined ? {} : { [AS_USER]: user }}});
  }

  it('posts the owner\'s JSON to the outbox and answers 201 with the activity and its Location', async(): Promise<void> => {
    const response = await post('/actors/alice/outbox', JSON.stringify(NOTE), 'alice');
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe('https://pod.example/activities/1');
    expect(response.headers.get('content-type')).toBe('application/activity+json; charset=utf-8');
    expect(await response.json()).toEqual({ ...NOTE, id: 'https://pod.example/activities/1' });
    expect(outbox.posted).toEqual([{ username: 'alice', body: NOTE }]);
  });

  it('answers 403 not_owner to anyone but the outbox\'s owner, posting nothing', async(): Promise<void> => {
    for (const user of [ undefined, 'bob' ]) {
      const response = await post('/actors/alice/outbox', JSON.stringify(NOTE), user);
      expect(response.status).toBe(403);
      expect((await response.json() as { error: string }).error).toBe('not_owner');
    }
    expect(outbox.posted).toEqual([]);
  });

  it('answers 400 invalid_json to a body that does not parse and 413 past the body limit', async(): Promise<void> => {
    const broken = await post('/actors/alice/outbox', '{"type":', 'alice');
    expect(broken.status).toBe(400);
    expect((await broken.json() as { error: string }).error).toBe('invalid_json');
    const large = await post('/actors/alice/outbox', JSON.stringify({ ...NOTE, content: 'x'.repeat(2000) }), 'alice');
    expect(large.status).toBe(413);
    expect((await large.json() as { error: string }).error).toBe('payload_too_large');
    expect(outbox.posted).toEqual([]);
  });

  it('answers what the outbox refuses with the outbox\'s own status', async(): Promise<void> => {
    outbox.failWith = badRequest('The activity has no type.', 'invalid_activity');
    const response = await post('/actors/alice/outbox', '{}', 'alice');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_activity', message: 'The activity has no type.' });
  });

  it('takes only POSTs to an actor\'s outbox', async(): Promise<void> => {
    expect(declined(await fetch(`${server.base}/actors/alice/outbox`, { headers: { [AS_USER]: 'alice' }}))).toBe(true);
    for (const path of [ '/actors/alice/inbox', '/actors/Alice!/outbox', '/outbox', '/actors/alice/outbox/x' ]) {
      expect({ path, declined: declined(await post(path, JSON.stringify(NOTE), 'alice')) }).toEqual({ path, declined: true });
    }
    expect((await post('/actors/alice/outbox?x=1', JSON.stringify(NOTE), 'alice')).status).toBe(201);
  });
});
