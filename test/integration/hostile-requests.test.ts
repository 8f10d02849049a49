/**
 * Hostile requests that must fail alone and readably, on the real server (activitypub setup,
 * embedded store, local queue):
 * - a webhook body too deep to store, POSTed at the same time as ordinary ones: 400 for it, 202 for
 *   the others, whose jobs run; too deep JSON on the other JSON routes (LDP in the ldp setup): 400;
 * - a body over the limit sent with `Connection: close`, declared or chunked, 2 MB and 20 MB, one and
 *   four at once: the client reads the `HTTP/1.1 413` status line every time (not a reset);
 * - two Authorization headers: 400, and nothing is created;
 * - passwords with control characters: refused at signup, never a login.
 */
import * as net from 'node:net';
import { deepJsonText } from '../support/deepJson';
import { eventually } from '../support/eventually';
import { startFedpod, type FedpodServer } from '../support/fedpod';

interface Session { token: string; webId: string }

const PASSWORD = 'correct horse battery';

async function signup(server: FedpodServer, username: string): Promise<Session> {
  const response = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: PASSWORD }) });
  expect(response.status).toBe(201);
  return response.json() as Promise<Session>;
}

async function webhooksOf(server: FedpodServer, session: Session): Promise<unknown[]> {
  const response = await fetch(`${server.baseUrl}webhooks/`, { headers: { authorization: `Bearer ${session.token}` } });
  expect(response.status).toBe(200);
  return (await response.json() as { items: unknown[] }).items;
}

interface RawAnswer {
  /** All bytes read before the connection ended. */
  text: string;
  /** The socket error, if the connection ended with one (a reset). */
  error?: string;
}

/**
 * One request over a raw socket: `head` as given, then `body` (chunked when `chunked`), written on
 * whatever the server answers meanwhile, as a client that does not read before it is done sending.
 * Resolves with what was read once the connection ends.
 */
async function rawRequest(port: number, head: string, body?: Buffer, chunked = false): Promise<RawAnswer> {
  return new Promise<RawAnswer>((resolve): void => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (chunk: Buffer): void => {
      received.push(chunk);
    });
    socket.on('error', (failure: NodeJS.ErrnoException): void => {
      error = failure.code ?? failure.message;
    });
    socket.on('close', (): void => {
      resolve({ text: Buffer.concat(received).toString('latin1'), error });
    });
    socket.on('connect', (): void => {
      void (async(): Promise<void> => {
        const write = async(data: Buffer | string): Promise<void> => {
          if (socket.destroyed) {
            return;
          }
          if (!socket.write(data)) {
            await new Promise<void>((next): void => {
              const done = (): void => {
                socket.off('drain', done);
                socket.off('close', done);
                next();
              };
              socket.on('drain', done);
              socket.on('close', done);
            });
          }
        };
        await write(head);
        const piece = 64 * 1024;
        for (let offset = 0; body && offset < body.length && !socket.destroyed; offset += piece) {
          const part = body.subarray(offset, offset + piece);
          await write(chunked ? Buffer.concat([ Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n') ]) : part);
        }
        if (chunked) {
          await write('0\r\n\r\n');
        }
        // Half-close: the request is all sent; the server decides when the connection ends.
        if (!socket.destroyed) {
          socket.end();
        }
      })();
    });
  });
}

describe('hostile requests', (): void => {
  let server: FedpodServer;
  let alice: Session;
  let bob: Session;

  beforeAll(async(): Promise<void> => {
    server = await startFedpod({ config: 'activitypub' });
    alice = await signup(server, 'alice');
    bob = await signup(server, 'bob');
  });

  afterAll(async(): Promise<void> => {
    await server?.stop();
  });

  it('answers a webhook body too deep to store 400, and the ordinary ones POSTed with it 202; their jobs run', async(): Promise<void> => {
    const made = await fetch(`${server.baseUrl}webhooks`, { method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice.token}` }, body: '{"action":"store-in-container"}' });
    expect(made.status).toBe(201);
    const uri = made.headers.get('location')!;
    const post = async(body: string): Promise<Response> => fetch(uri, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const markers: string[] = [];
    for (let round = 0; round < 5; round += 1) {
      const good = [ `deep-neighbour-${round}-a`, `deep-neighbour-${round}-b` ];
      markers.push(...good);
      const [ first, deep, second ] = await Promise.all([ post(JSON.stringify({ marker: good[0] })), post(deepJsonText(10_000)),
        post(JSON.stringify({ marker: good[1] })) ]);
      expect(deep.status).toBe(400);
      expect(await deep.json()).toEqual({ error: 'too_deeply_nested', message: expect.stringContaining('64') });
      expect([ first.status, second.status ]).toEqual([ 202, 202 ]);
    }
    await eventually(async(): Promise<boolean> => {
      const response = await fetch(`${server.baseUrl}webhook-data/alice/`, {
        headers: { accept: 'application/ld+json', authorization: `Bearer ${alice.token}` } });
      const text = response.status === 200 ? await response.text() : '';
      return markers.every((marker): boolean => text.includes(marker));
    }, 60_000);
  });

  it('refuses too deep JSON with 400 on the other JSON routes', async(): Promise<void> => {
    const deep = deepJsonText(1_000, '{}');
    const deepObject = `{"@context":"https://www.w3.org/ns/activitystreams","type":"Note","content":${deep}}`;
    const cases: [string, string, Record<string, string>, string][] = [
      [ 'POST', 'auth/signup', { 'content-type': 'application/json' }, `{"username":"x","password":${deep}}` ],
      [ 'POST', 'auth/login', { 'content-type': 'application/json' }, `{"username":"alice","password":${deep}}` ],
      [ 'POST', 'actors/alice/outbox', { 'content-type': 'application/activity+json', authorization: `Bearer ${alice.token}` }, deepObject ],
      [ 'POST', 'webhooks', { 'content-type': 'application/json', authorization: `Bearer ${alice.token}` }, deep ],
    ];
    for (const [ method, path, headers, body ] of cases) {
      const response = await fetch(`${server.baseUrl}${path}`, { method, headers, body });
      expect({ path, method, status: response.status }).toEqual({ path, method, status: 400 });
      expect(await response.json()).toMatchObject({ error: 'too_deeply_nested' });
    }
    // LDP JSON-LD writes, where the setup lets anyone write (the ldp setup's /notes/).
    const ldp = await startFedpod({ config: 'ldp' });
    try {
      for (const [ method, path, type ] of [ [ 'POST', 'notes/', 'application/ld+json' ], [ 'PUT', 'notes/deep', 'application/ld+json' ],
        [ 'POST', 'notes/', 'application/json' ] ]) {
        const response = await fetch(`${ldp.baseUrl}${path}`, { method, headers: { 'content-type': type }, body: deepObject });
        expect({ path, method, status: response.status }).toEqual({ path, method, status: 400 });
        expect(await response.json()).toMatchObject({ error: 'too_deeply_nested' });
      }
      expect((await fetch(`${ldp.baseUrl}notes/deep`)).status).toBe(404);
    } finally {
      await ldp.stop();
    }
  });

  describe('a body over the limit sent with Connection: close', (): void => {
    const head = (size: number | 'chunked'): string => `POST /actors/alice/inbox HTTP/1.1\r\nHost: localhost:${server.port}\r\n` +
      `Content-Type: application/activity+json\r\nConnection: close\r\n${
        size === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${size}`}\r\n\r\n`;

    it.each([
      [ '2 MB, declared', 2_000_000, false ],
      [ '20 MB, declared', 20_000_000, false ],
      [ '2 MB, chunked', 2_000_000, true ],
      [ '20 MB, chunked', 20_000_000, true ],
    ])('is answered with a 413 the client reads: %s, one and four at once', async(_, size, chunked): Promise<void> => {
      const body = Buffer.alloc(size, 0x61);
      const send = async(): Promise<RawAnswer> => rawRequest(server.port, head(chunked ? 'chunked' : size), body, chunked);
      const answers: RawAnswer[] = [];
      for (let round = 0; round < 3; round += 1) {
        answers.push(await send());
      }
      answers.push(...await Promise.all([ send(), send(), send(), send() ]));
      for (const answer of answers) {
        expect({ status: answer.text.slice(0, 12), error: answer.error }).toEqual({ status: 'HTTP/1.1 413', error: undefined });
        expect(answer.text).toContain('"error":"payload_too_large"');
      }
    });
  });

  it('refuses two Authorization headers with 400, creating nothing', async(): Promise<void> => {
    const before = [ (await webhooksOf(server, alice)).length, (await webhooksOf(server, bob)).length ];
    const body = '{"action":"store-in-container"}';
    const answer = await rawRequest(server.port, `POST /webhooks HTTP/1.1\r\nHost: localhost:${server.port}\r\n` +
      `Authorization: Bearer ${bob.token}\r\nAuthorization: Bearer ${alice.token}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    expect(answer.text.slice(0, 12)).toBe('HTTP/1.1 400');
    const json = JSON.parse(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(json).toEqual({ error: 'duplicate_header', message: expect.stringContaining('Authorization') });
    expect([ (await webhooksOf(server, alice)).length, (await webhooksOf(server, bob)).length ]).toEqual(before);
  });

  it('refuses a password with a control character at signup, and never logs in with one', async(): Promise<void> => {
    const signupWith = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'carol', email: 'carol@example.com', password: `${PASSWORD}\u0000` }) });
    expect(signupWith.status).toBe(400);
    expect(await signupWith.json()).toEqual({ error: 'invalid_password', message: expect.stringContaining('control characters') });
    const login = async(password: string): Promise<number> => (await fetch(`${server.baseUrl}auth/login`, { method: 'POST',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'alice', password }) })).status;
    expect(await login(`${PASSWORD}\u0000`)).toBe(401);
    expect(await login(`${PASSWORD}\u0000extra`)).toBe(401);
    expect(await login(PASSWORD)).toBe(200);
  });
});
