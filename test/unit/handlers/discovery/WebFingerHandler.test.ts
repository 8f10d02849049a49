import { WebFingerHandler } from '../../../../src/handlers/discovery/WebFingerHandler';
import { InMemoryAccountStoreFake } from '../support/InMemoryAccountStore';
import { call, get } from './support';

const PROFILE_PAGE = 'http://webfinger.net/rel/profile-page';
/** Alice's JRD, whichever form of her name was asked for. */
const ALICE_JRD = {
  subject: 'acct:alice@localhost:3000',
  aliases: [ 'http://localhost:3000/actors/alice' ],
  links: [
    { rel: 'self', type: 'application/activity+json', href: 'http://localhost:3000/actors/alice' },
    { rel: PROFILE_PAGE, type: 'text/html', href: 'http://localhost:3000/actors/alice' },
    { rel: 'http://ostatus.org/schema/1.0/subscribe', template: 'http://localhost:3000/authorize_interaction?uri={uri}' },
  ],
};

function webfinger(resource: string, extra = ''): string {
  return `/.well-known/webfinger?resource=${encodeURIComponent(resource)}${extra}`;
}

describe('WebFingerHandler', (): void => {
  const BASE = 'http://localhost:3000/';
  let store: InMemoryAccountStoreFake;
  let handler: WebFingerHandler;

  beforeEach((): void => {
    store = new InMemoryAccountStoreFake(BASE, [ 'alice', 'bob.b' ]);
    handler = new WebFingerHandler(BASE, store);
  });

  it('answers the JRD of acct:user@host:port as application/jrd+json, with CORS', async(): Promise<void> => {
    const reply = await get(handler, webfinger('acct:alice@localhost:3000'));
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/jrd+json; charset=utf-8');
    expect(reply.headers['access-control-allow-origin']).toBe('*');
    expect(reply.headers['content-length']).toBe(Buffer.byteLength(reply.body));
    expect(reply.json()).toEqual(ALICE_JRD);
  });

  it('answers acct:user@host when the base URL has no port', async(): Promise<void> => {
    const base = 'https://pod.example/';
    const portless = new WebFingerHandler(base, new InMemoryAccountStoreFake(base, [ 'alice' ]));
    const reply = await get(portless, webfinger('acct:alice@pod.example'));
    expect(reply.status).toBe(200);
    expect(reply.json()).toMatchObject({ subject: 'acct:alice@pod.example', aliases: [ 'https://pod.example/actors/alice' ]});
    // The scheme's default port written out is the same host.
    expect((await get(portless, webfinger('acct:alice@pod.example:443'))).status).toBe(200);
    // Any other port is another host.
    const other = await get(portless, webfinger('acct:alice@pod.example:8443'));
    expect(other.status).toBe(404);
  });

  it('requires the port when the base URL has one', async(): Promise<void> => {
    const reply = await get(handler, webfinger('acct:alice@localhost'));
    expect(reply.status).toBe(404);
    expect(reply.json()).toMatchObject({ error: 'not_found' });
    expect((await get(handler, webfinger('acct:alice@localhost:3001'))).status).toBe(404);
  });

  it('compares the host case-insensitively and answers the canonical subject', async(): Promise<void> => {
    const reply = await get(handler, webfinger('acct:Alice@LocalHost:3000'));
    expect(reply.status).toBe(200);
    expect(reply.json().subject).toBe('acct:alice@localhost:3000');
    expect((await get(handler, webfinger('ACCT:alice@localhost:3000'))).status).toBe(200);
  });

  it('accepts a percent-encoded acct: URI (also encoded twice)', async(): Promise<void> => {
    const once = await get(handler, '/.well-known/webfinger?resource=acct%3Aalice%40localhost%3A3000');
    expect(once.status).toBe(200);
    expect(once.json().subject).toBe('acct:alice@localhost:3000');
    const plain = await get(handler, '/.well-known/webfinger?resource=acct:bob.b@localhost:3000');
    expect(plain.json().subject).toBe('acct:bob.b@localhost:3000');
    const twice = await get(handler, '/.well-known/webfinger?resource=acct%253Aalice%2540localhost%253A3000');
    expect(twice.status).toBe(200);
    expect(twice.json().subject).toBe('acct:alice@localhost:3000');
  });

  it('answers 404 for another host', async(): Promise<void> => {
    const reply = await get(handler, webfinger('acct:alice@mastodon.example'));
    expect(reply.status).toBe(404);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.json()).toEqual({ error: 'not_found', message: expect.any(String) });
    expect(reply.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers 404 for an unknown user, also one no account could have', async(): Promise<void> => {
    for (const resource of [ 'acct:carol@localhost:3000', 'acct:no%20such@localhost:3000', 'acct:a%40b@localhost:3000' ]) {
      const reply = await get(handler, webfinger(resource));
      expect(reply.status).toBe(404);
      expect(reply.json().error).toBe('not_found');
    }
  });

  it('answers 400 for a missing resource', async(): Promise<void> => {
    for (const url of [ '/.well-known/webfinger', '/.well-known/webfinger?resource=', '/.well-known/webfinger?rel=self' ]) {
      const reply = await get(handler, url);
      expect(reply.status).toBe(400);
      expect(reply.json()).toEqual({ error: 'missing_resource', message: expect.any(String) });
      expect(reply.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it.each([
    [ 'alice' ],
    [ 'alice@localhost:3000' ],
    [ 'acct:alice' ],
    [ 'acct:@localhost:3000' ],
    [ 'acct:alice@' ],
    [ 'acct:alice@localhost:3000/actors' ],
    [ 'acct:alice@localhost:3000?x=1' ],
    [ 'acct:alice@local host' ],
    [ 'acct:%E0%A4%A@localhost:3000' ],
    [ 'acct:alice@localhost:99999' ],
    [ 'acct%3Aalice%40localhost%3' ],
  ])('answers 400 for the malformed resource %j', async(resource): Promise<void> => {
    const reply = await get(handler, webfinger(resource));
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({ error: 'invalid_resource', message: expect.any(String) });
  });

  it('answers 400 when the resource is given twice', async(): Promise<void> => {
    const reply = await get(handler, `${webfinger('acct:alice@localhost:3000')}&resource=acct:bob.b@localhost:3000`);
    expect(reply.status).toBe(400);
    expect(reply.json().error).toBe('invalid_resource');
  });

  it('accepts the actor URL itself as resource', async(): Promise<void> => {
    const reply = await get(handler, webfinger('http://localhost:3000/actors/alice'));
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual(ALICE_JRD);
    // The host of an actor URL is case-insensitive too.
    expect((await get(handler, webfinger('http://LOCALHOST:3000/actors/alice'))).status).toBe(200);
  });

  it('answers 404 for URLs that are not actors of an existing account here', async(): Promise<void> => {
    for (const resource of [
      'http://localhost:3000/actors/carol',
      'http://localhost:3000/actors/alice/inbox',
      'http://localhost:3000/notes/1',
      'https://localhost:3000/actors/alice',
      'http://mastodon.example/users/alice',
      'mailto:alice@localhost',
    ]) {
      const reply = await get(handler, webfinger(resource));
      expect(reply.status).toBe(404);
    }
  });

  it('answers application/jrd+json also when application/json is asked for', async(): Promise<void> => {
    for (const accept of [ 'application/json', 'application/jrd+json', 'text/html', '*/*' ]) {
      const reply = await get(handler, webfinger('acct:alice@localhost:3000'), { headers: { accept }});
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe('application/jrd+json; charset=utf-8');
    }
  });

  it('keeps only the links of the requested rels', async(): Promise<void> => {
    const self = await get(handler, webfinger('acct:alice@localhost:3000', '&rel=self'));
    expect(self.json().links).toEqual([
      { rel: 'self', type: 'application/activity+json', href: 'http://localhost:3000/actors/alice' },
    ]);
    const both = await get(handler, webfinger('acct:alice@localhost:3000', `&rel=self&rel=${encodeURIComponent(PROFILE_PAGE)}`));
    expect(both.json().links).toHaveLength(2);
    const none = await get(handler, webfinger('acct:alice@localhost:3000', '&rel=http%3A%2F%2Fexample.org%2Fother'));
    expect(none.json()).toMatchObject({ subject: 'acct:alice@localhost:3000', links: []});
  });

  it('answers HEAD with the headers only', async(): Promise<void> => {
    const get200 = await get(handler, webfinger('acct:alice@localhost:3000'));
    const head = await get(handler, webfinger('acct:alice@localhost:3000'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(get200.headers['content-length']);
    expect(head.headers['content-type']).toBe('application/jrd+json; charset=utf-8');
  });

  it('answers 405 with Allow to other methods and leaves OPTIONS to CSS', async(): Promise<void> => {
    for (const method of [ 'POST', 'PUT', 'DELETE', 'PATCH' ]) {
      const reply = await get(handler, webfinger('acct:alice@localhost:3000'), { method });
      expect(reply.status).toBe(405);
      expect(reply.headers.allow).toBe('GET, HEAD');
      expect(reply.json().error).toBe('method_not_allowed');
    }
    await expect(call(handler, webfinger('acct:alice@localhost:3000'), { method: 'OPTIONS' })).resolves.toBeUndefined();
  });

  it('refuses other paths with NOT_HANDLED, matching on the path part only', async(): Promise<void> => {
    for (const url of [ '/', '/.well-known/webfinger/', '/.well-known/webfingers', '/x/.well-known/webfinger',
      '/.well-known/nodeinfo?resource=acct:alice@localhost:3000' ]) {
      await expect(call(handler, url)).resolves.toBeUndefined();
    }
    expect(await call(handler, '/.well-known/webfinger?')).toBeDefined();
  });

  it('keeps an Access-Control-Allow-Origin that CSS middleware already set', async(): Promise<void> => {
    const reply = await get(handler, webfinger('acct:alice@localhost:3000'),
      { headers: { origin: 'https://app.example' }, preset: { 'Access-Control-Allow-Origin': 'https://app.example' }});
    expect(reply.headers['access-control-allow-origin']).toBe('https://app.example');
  });

  it('serves under the path of a base URL that has one', async(): Promise<void> => {
    const base = 'https://host.example/pod/';
    const nested = new WebFingerHandler(base, new InMemoryAccountStoreFake(base, [ 'alice' ]));
    await expect(call(nested, webfinger('acct:alice@host.example'))).resolves.toBeUndefined();
    const reply = await get(nested, `/pod${webfinger('acct:alice@host.example')}`);
    expect(reply.json()).toMatchObject({ subject: 'acct:alice@host.example', aliases: [ 'https://host.example/pod/actors/alice' ]});
    const byActor = await get(nested, `/pod${webfinger('https://host.example/pod/actors/alice')}`);
    expect(byActor.status).toBe(200);
  });

  it('accepts a base URL without trailing slash', async(): Promise<void> => {
    const slashless = new WebFingerHandler('http://localhost:3000', store);
    const reply = await get(slashless, webfinger('acct:alice@localhost:3000'));
    expect(reply.json().aliases).toEqual([ 'http://localhost:3000/actors/alice' ]);
  });
});
