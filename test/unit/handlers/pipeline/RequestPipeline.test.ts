import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { HttpHandler } from '@solid/community-server';
import type { AccessPolicy } from '../../../../src/handlers/access/AccessPolicy';
import { ReadOnlyAccess } from '../../../../src/handlers/access/ReadOnlyAccess';
import { PublicAccess } from '../../../../src/handlers/access/PublicAccess';
import { PathOwnerAccess } from '../../../../src/handlers/access/PathOwnerAccess';
import { NOT_HANDLED } from '../../../../src/handlers/http/NotHandled';
import type { Agent } from '../../../../src/handlers/http/Agent';
import type { OperationInput } from '../../../../src/handlers/http/Operation';
import { Operation } from '../../../../src/handlers/http/Operation';
import { Authenticator } from '../../../../src/handlers/pipeline/Authenticator';
import { RequestPipeline } from '../../../../src/handlers/pipeline/RequestPipeline';
import { Route } from '../../../../src/handlers/pipeline/Route';
import { RouteGroup } from '../../../../src/handlers/pipeline/RouteGroup';
import { readBody } from '../../../../src/handlers/http/HttpUtil';
import type { Admission } from '../../../../src/handlers/pipeline/Admission';
import { serviceUnavailable } from '../../../../src/util/HttpErrors';
import { MastodonScopeAccess } from '../../../../src/handlers/mastodon/MastodonScopeAccess';
import { MastodonOAuthService } from '../../../../src/plugins/mastodon/MastodonOAuthService';

/** Answers 200 with the agent it saw and the body it read; records each call and the last operation. */
class RecordingHandler extends HttpHandler {
  public readonly calls: string[] = [];
  public operation?: Operation;

  public constructor(private readonly methods?: string[]) {
    super();
  }

  public override async canHandle({ request }: OperationInput): Promise<void> {
    if (this.methods && !this.methods.includes(request.method!)) {
      throw NOT_HANDLED;
    }
  }

  public async handle({ request, response, operation }: OperationInput): Promise<void> {
    const body = await readBody(request, 1 << 20);
    this.calls.push(`${request.method} ${request.url}`);
    this.operation = operation;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ agent: operation.agent, body: body.toString() }));
  }
}

/** Records what it was asked and refuses writes. */
class RecordingPolicy implements AccessPolicy {
  public readonly seen: { method: string; target: string; params: Operation['params'] }[] = [];

  public async authorize(input: Operation): Promise<void> {
    this.seen.push({ method: input.method, target: input.target.iri, params: input.params });
    await new ReadOnlyAccess('Read-only in this test.').authorize(input);
  }
}

/** Takes requests unless told to shed them; counts what it was asked. */
class SwitchedAdmission implements Admission {
  public shedding = false;
  public asked = 0;

  public async admit(): Promise<void> {
    this.asked += 1;
    if (this.shedding) {
      throw serviceUnavailable('Busy in this test.', 'busy', 9);
    }
  }
}

/** A loopback server for a pipeline to take, and its base URL. */
async function listen(): Promise<{ server: Server; base: string }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

describe('RequestPipeline', () => {
  let server: Server;
  let base: string;
  const fallback = new RecordingHandler();
  const objects = new RecordingHandler([ 'GET' ]);
  const typed = new RecordingHandler();
  const policy = new RecordingPolicy();
  const admitted = new RecordingHandler();
  const admission = new SwitchedAdmission();

  beforeAll(async() => {
    ({ server, base } = await listen());
    const pipeline = new RequestPipeline({
      baseUrl: base,
      // Groups as the setups' parts give them, one of them empty (a part the setup leaves out).
      routes: [
        new RouteGroup([
          new Route({ name: 'object', paths: [ '/objects/:id' ], access: policy, handler: objects, mediaTypes: [ 'application/json' ]}),
        ]),
        new RouteGroup([]),
        new RouteGroup([
          new Route({ name: 'small', paths: [ '/small' ], access: new PublicAccess(), maxBodyBytes: 10 }),
          new Route({ name: 'typed', paths: [ '/typed' ], access: new PublicAccess(), handler: typed, mediaTypes: [ 'application/json' ]}),
          new Route({ name: 'shed', paths: [ '/shed' ], access: new PublicAccess(), handler: admitted, admission }),
        ]),
      ],
      defaultAccess: new ReadOnlyAccess(),
      defaultHandler: fallback,
      authenticator: new Authenticator(base),
      maxBodyBytes: 1000,
    });
    await pipeline.handle(server);
  });

  afterAll(async() => {
    await close(server);
  });

  it('authorizes a route\'s request with its policy, its target and parameters, then runs its handler', async() => {
    const response = await fetch(`${base}objects/abc?x=1`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ agent: {}, body: '' });
    expect(policy.seen.at(-1)).toEqual({ method: 'GET', target: `${base}objects/abc`, params: { id: 'abc' }});
    expect(objects.calls.at(-1)).toBe('GET /objects/abc?x=1');
  });

  it('routes, authorizes and serves one spelling of a target, however the client encoded it', async() => {
    const response = await fetch(`${base}%6fbjects/%61bc`);
    expect(response.status).toBe(200);
    expect(policy.seen.at(-1)).toEqual({ method: 'GET', target: `${base}objects/abc`, params: { id: 'abc' }});
    expect(objects.calls.at(-1)).toBe('GET /objects/abc');
    const dotted = await fetch(`${base}objects/x/..%2F..%2F`);
    expect(dotted.status).toBeLessThan(500);
  });

  it('refuses what the policy refuses with a JSON error, and the handler never runs', async() => {
    const before = objects.calls.length;
    const response = await fetch(`${base}objects/abc`, { method: 'PUT', body: 'x'.repeat(500), headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'authentication_required', message: expect.stringContaining('Read-only in this test.') });
    expect(objects.calls).toHaveLength(before);
  });

  it('refuses a body of a media type the route does not take with 415, after its policy and before its handler', async() => {
    const turtle = { method: 'PUT', body: '<a> <b> <c>.', headers: { 'content-type': 'text/turtle' } };
    // Whoever may not write learns nothing of what the route takes.
    expect((await fetch(`${base}objects/abc`, turtle)).status).toBe(401);
    const response = await fetch(`${base}typed`, turtle);
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ error: 'unsupported_media_type', message: expect.stringContaining('application/json') });
    expect(typed.calls).toHaveLength(0);
    const json = await fetch(`${base}typed`, { method: 'PUT', body: '{}', headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(json.status).toBe(200);
    expect(typed.calls).toEqual([ 'PUT /typed' ]);
  });

  it('sends paths no route names to the default policy and handler', async() => {
    expect((await fetch(`${base}anything/else`)).status).toBe(200);
    expect(fallback.calls.at(-1)).toBe('GET /anything/else');
    expect((await fetch(`${base}anything/else`, { method: 'DELETE' })).status).toBe(401);
    expect(fallback.calls.at(-1)).toBe('GET /anything/else');
  });

  it('says on every answer, served or refused, that it varies with Accept, Authorization and Origin', async() => {
    // Handlers negotiate, filter by the reader and echo the Origin: a cache must keep those apart.
    for (const [ path, init ] of [ [ 'objects/abc', {}], [ 'anything/else', {}], [ 'objects/abc', { method: 'PUT', body: 'x' }] ] as const) {
      const response = await fetch(`${base}${path}`, { ...init, headers: { origin: 'https://app.example' }});
      expect(response.headers.get('vary')).toBe('Accept, Authorization, Origin');
    }
  });

  it('answers 406 or 405 when the route\'s handler does not take the request', async() => {
    // The policy lets HEAD through; the handler takes GET only.
    const head = await fetch(`${base}objects/abc`, { method: 'HEAD' });
    expect(head.status).toBe(406);
  });

  it('answers a CORS preflight on every route, with what browsers need to send a token and read Location', async() => {
    for (const path of [ 'objects/abc', 'anything', 'webhooks' ]) {
      const response = await fetch(`${base}${path}`, { method: 'OPTIONS', headers: { origin: 'https://app.example',
        'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(response.headers.get('access-control-allow-methods')).toContain('POST');
      expect(response.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    }
    const answer = await fetch(`${base}objects/abc`, { headers: { origin: 'https://app.example' } });
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(answer.headers.get('access-control-expose-headers')).toMatch(/Location.*WAC-Allow/u);
  });

  it('answers 413 to a body over the route\'s limit, readable by a client still sending it', async() => {
    // 8 MiB: far more than the socket buffers take at once, so the answer comes while the client still sends.
    const response = await fetch(`${base}small`, { method: 'POST', body: Buffer.alloc(8 * 1024 * 1024, 120) });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'payload_too_large' });
    expect((await fetch(`${base}small`, { method: 'POST', body: 'x'.repeat(5) })).status).toBe(200);
  });

  it('answers 401 to credentials it cannot check, before any handler', async() => {
    const before = fallback.calls.length;
    const response = await fetch(`${base}anything`, { headers: { authorization: 'Bearer not-a-token' } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_token' });
    expect(fallback.calls).toHaveLength(before);
  });

  it('asks the route\'s admission first: a refusal is answered before authentication, and the handler never runs', async() => {
    expect((await fetch(`${base}shed`, { method: 'POST', body: '{}' })).status).toBe(200);
    admission.shedding = true;
    const response = await fetch(`${base}shed`, { method: 'POST', body: '{}', headers: { authorization: 'Bearer not-a-token' } });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('9');
    expect(await response.json()).toEqual({ error: 'busy', message: 'Busy in this test.' });
    expect(admitted.calls).toEqual([ 'POST /shed' ]);
    expect(admission.asked).toBe(2);
    // Other routes are not asked.
    await fetch(`${base}typed`, { method: 'PUT', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(admission.asked).toBe(2);
  });
});

describe('RequestPipeline\'s operation', () => {
  let server: Server;
  let base: string;
  const handler = new RecordingHandler();
  const fallback = new RecordingHandler();
  const ALICE: Agent = { webId: 'https://pod.example/actors/alice', username: 'alice' };
  let pipeline: RequestPipeline;
  /** Whether the request's operation could be found (Operation.of) while it was being authenticated. */
  const boundWhileAuthenticating: boolean[] = [];
  /** Takes the `x-as` header for credentials: alice, or anonymous. */
  const authenticator = { authenticate: async({ request }: Operation): Promise<Agent> => {
    boundWhileAuthenticating.push(Operation.of(request) !== undefined);
    return request.headers['x-as'] === 'alice' ? ALICE : {};
  } };

  beforeAll(async() => {
    ({ server, base } = await listen());
    pipeline = new RequestPipeline({
      baseUrl: base,
      routes: [ new RouteGroup([
        new Route({ name: 'member', paths: [ '/actors/:user/:collection' ], access: new ReadOnlyAccess(), handler }),
        new Route({ name: 'private', paths: [ '/private/:user' ], access: new PathOwnerAccess(), handler }),
      ]) ],
      defaultAccess: new PublicAccess(),
      defaultHandler: fallback,
      authenticator: authenticator as unknown as Authenticator,
      maxBodyBytes: 1000,
    });
    await pipeline.handle(server);
  });

  afterAll(async() => {
    await close(server);
  });

  it('hands the handler one operation: route, parameters, parsed target, agent and access decision', async() => {
    const response = await fetch(`${base}actors/%61lice/followers?page=true&after=x`, { headers: { 'x-as': 'alice' }});
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ agent: ALICE, body: '' });
    const operation = handler.operation!;
    expect(operation.route).toEqual({ name: 'member', template: '/actors/:user/:collection' });
    expect(operation.params).toEqual({ user: 'alice', collection: 'followers' });
    expect(operation.method).toBe('GET');
    expect(operation.target).toMatchObject({ iri: `${base}actors/alice/followers`, path: '/actors/alice/followers',
      search: '?page=true&after=x', sent: '/actors/%61lice/followers?page=true&after=x' });
    expect(operation.target.query.get('after')).toBe('x');
    expect(operation.agent).toBe(ALICE);
    // What ReadOnlyAccess decided, for the handler's answer.
    expect(operation.access.headers).toEqual({ 'wac-allow': 'user="read",public="read"' });
    // CSS's components, which get only the request, find the same operation, but only once it is
    // authenticated: CSS's credentials extractor, asked by the authentication, must check the token itself.
    expect(Operation.of(operation.request)).toBe(operation);
    expect(boundWhileAuthenticating).toEqual([ false ]);
  });

  it('hands the default handler the operation of the default route, anonymous without credentials', async() => {
    expect((await fetch(`${base}notes/1`)).status).toBe(200);
    const operation = fallback.operation!;
    expect(operation.route).toEqual({ name: 'ldp' });
    expect(operation.params).toEqual({});
    expect(operation.target.iri).toBe(`${base}notes/1`);
    expect(operation.agent).toEqual({});
  });

  it('decides a read outside a request (mayRead) by the rules a GET of the resource meets', async() => {
    expect(await pipeline.mayRead(`${base}private/alice`, ALICE)).toBe(true);
    expect(await pipeline.mayRead(`${base}private/bob`, ALICE)).toBe(false);
    expect(await pipeline.mayRead(`${base}private/alice`, {})).toBe(false);
    expect(await pipeline.mayRead(`${base}notes/1`, {})).toBe(true);
    // Only this server's resources, in their canonical spelling.
    expect(await pipeline.mayRead('https://elsewhere.example/notes/1', ALICE)).toBe(false);
    expect(await pipeline.mayRead(`${base}%70rivate/alice`, ALICE)).toBe(false);
    expect(await pipeline.mayRead('not an IRI', ALICE)).toBe(false);
  });
});

describe('RequestPipeline with the OAuth tokens of Mastodon apps', () => {
  let server: Server;
  let base: string;
  let dataDir: string;
  let accessToken: string;
  const handler = new RecordingHandler();

  beforeAll(async() => {
    ({ server, base } = await listen());
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-pipeline-oauth-'));
    const oauth = new MastodonOAuthService(dataDir);
    const { app, clientSecret } = await oauth.register({ client_name: 'app', redirect_uris: 'https://app.example/cb', scopes: 'read write' });
    const code = await oauth.issueCode({ clientId: app.clientId, username: 'alice', webId: `${base}actors/alice`, scopes: [ 'write' ],
      redirectUri: 'https://app.example/cb' });
    accessToken = (await oauth.exchangeCode({ clientId: app.clientId, clientSecret }, code, undefined, undefined)).access_token;
    const pipeline = new RequestPipeline({
      baseUrl: base,
      routes: [ new RouteGroup([
        new Route({ name: 'api', paths: [ '/api/v1/statuses' ], access: new MastodonScopeAccess({ scope: 'write:statuses', policy: new PublicAccess() }), handler }),
        new Route({ name: 'outbox', paths: [ '/actors/:user/outbox' ], access: new PathOwnerAccess(), handler }),
      ]) ],
      defaultAccess: new PublicAccess(),
      defaultHandler: handler,
      authenticator: new Authenticator(base, undefined, undefined, undefined, undefined, 100, oauth),
      maxBodyBytes: 1000,
    });
    await pipeline.handle(server);
  });

  afterAll(async() => {
    await close(server);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lets an app\'s token in on a route whose policy checks scopes, with its user and scopes', async() => {
    const response = await fetch(`${base}api/v1/statuses`, { headers: { authorization: `Bearer ${accessToken}` }});
    expect(response.status).toBe(200);
    expect(((await response.json()) as { agent: Agent }).agent).toMatchObject({ username: 'alice', scopes: [ 'write' ]});
  });

  it('refuses it (401) on every other route, even one its user may use, and on LDP paths', async() => {
    const before = handler.calls.length;
    for (const target of [ 'actors/alice/outbox', 'pods/alice/file' ]) {
      const response = await fetch(`${base}${target}`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` }, body: '{}' });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'invalid_token' });
    }
    expect(handler.calls).toHaveLength(before);
  });
});
