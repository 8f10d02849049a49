import { generateKeyPairSync } from 'node:crypto';
import { RemoteFetchError, SsrfBlockedError } from '../../../../../src/plugins/activitypub/fetch/FetchErrors';
import { parseRetryAfter, RemoteFetcher } from '../../../../../src/plugins/activitypub/fetch/RemoteFetcher';
import { HttpSignatureVerifier } from '../../../../../src/plugins/activitypub/signatures/HttpSignatureVerifier';
import { HttpSigner } from '../../../../../src/plugins/activitypub/signatures/HttpSigner';
import { LocalServer } from './localServer';

describe('RemoteFetcher', () => {
  let server: LocalServer;
  let fetcher: RemoteFetcher;

  beforeEach(async () => {
    server = await new LocalServer().start();
    fetcher = new RemoteFetcher(true, 2_000, 'Fedpod/test');
  });

  afterEach(async () => {
    fetcher.close();
    await server.stop();
  });

  describe('getJson', () => {
    it('fetches a JSON document with Accept and User-Agent', async () => {
      server.json('/users/alice', { id: 'x' });
      const result = await fetcher.getJson(`${server.origin}/users/alice#main-key`, { accept: 'application/activity+json' });
      expect(result).toEqual({
        status: 200,
        json: { id: 'x' },
        finalUrl: `${server.origin}/users/alice`,
        contentType: 'application/activity+json',
      });
      expect(server.seen[0]).toMatchObject({
        method: 'GET',
        url: '/users/alice',
        headers: { accept: 'application/activity+json', 'user-agent': 'Fedpod/test', host: `127.0.0.1:${server.port}` },
      });
    });

    it('parses only JSON media types and only 2xx answers', async () => {
      server.json('/ld', { a: 1 }, 200, 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"');
      server.json('/html', { a: 1 }, 200, 'text/html');
      server.json('/gone', { a: 1 }, 410);
      server.routes.set('/broken', (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{nope'));
      await expect(fetcher.getJson(`${server.origin}/ld`)).resolves.toMatchObject({ status: 200, json: { a: 1 } });
      await expect(fetcher.getJson(`${server.origin}/html`)).resolves.toEqual({ status: 200, finalUrl: `${server.origin}/html`, contentType: 'text/html' });
      const gone = await fetcher.getJson(`${server.origin}/gone`);
      expect(gone.status).toBe(410);
      expect(gone.json).toBeUndefined();
      const broken = await fetcher.getJson(`${server.origin}/broken`);
      expect(broken.json).toBeUndefined();
    });

    it('follows up to 3 redirects and reports the final URL', async () => {
      server.routes.set('/a', (_req, res) => res.writeHead(301, { location: '/b' }).end());
      server.routes.set('/b', (_req, res) => res.writeHead(302, { location: `${server.origin}/c?x=1` }).end());
      server.routes.set('/c', (_req, res) => res.writeHead(308, { location: 'd' }).end());
      server.json('/d', { done: true });
      const result = await fetcher.getJson(`${server.origin}/a`);
      expect(result).toMatchObject({ status: 200, json: { done: true }, finalUrl: `${server.origin}/d` });
      expect(server.seen.map((seen) => seen.url)).toEqual([ '/a', '/b', '/c?x=1', '/d' ]);
    });

    it('refuses a fourth redirect', async () => {
      server.routes.set('/loop', (_req, res) => res.writeHead(302, { location: '/loop' }).end());
      await expect(fetcher.getJson(`${server.origin}/loop`)).rejects.toMatchObject({ code: 'TOO_MANY_REDIRECTS', retryable: false });
      expect(server.seen).toHaveLength(4);
    });

    it('re-checks each redirect target', async () => {
      server.routes.set('/evil', (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end());
      await expect(fetcher.getJson(`${server.origin}/evil`)).rejects.toBeInstanceOf(SsrfBlockedError);
    });

    it('refuses bodies over the size limit', async () => {
      const small = new RemoteFetcher(true, 2_000, 'Fedpod', 8, 1_000);
      server.json('/declared', { data: 'x'.repeat(2_000) });
      server.routes.set('/chunked', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(`{"data":"${'x'.repeat(600)}`);
        setTimeout(() => res.end(`${'x'.repeat(600)}"}`), 20);
      });
      await expect(small.getJson(`${server.origin}/declared`)).rejects.toMatchObject({ code: 'TOO_LARGE', retryable: false });
      await expect(small.getJson(`${server.origin}/chunked`)).rejects.toMatchObject({ code: 'TOO_LARGE', retryable: false });
      small.close();
    });

    it('times out', async () => {
      const quick = new RemoteFetcher(true, 200);
      server.routes.set('/slow', () => undefined);
      const started = Date.now();
      await expect(quick.getJson(`${server.origin}/slow`)).rejects.toMatchObject({ code: 'ETIMEDOUT', retryable: true });
      expect(Date.now() - started).toBeLessThan(1_500);
      quick.close();
    });

    it('signs GETs when asked, verifiably', async () => {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const keyId = 'https://fedpod.example/actor#main-key';
      server.json('/private', { secret: true });
      await fetcher.getJson(`${server.origin}/private?page=1`, { signWith: { keyId, privateKey } });
      const seen = server.seen[0];
      expect(seen.headers.signature).toContain('headers="(request-target) host date"');
      const result = await new HttpSignatureVerifier().verify(
        { method: seen.method, url: `${server.origin}${seen.url}`, headers: seen.headers },
        async () => ({ publicKey, owner: 'https://fedpod.example/actor' }),
      );
      expect(result).toMatchObject({ ok: true, scheme: 'cavage' });
    });

    it('reuses connections', async () => {
      server.json('/doc', {});
      for (let i = 0; i < 5; i += 1) {
        await fetcher.getJson(`${server.origin}/doc`);
      }
      expect(server.connections).toBe(1);
    });

    it('closes connections idle longer than idleSocketMs', async () => {
      server.json('/doc', {});
      const brief = new RemoteFetcher(true, 2_000, 'Fedpod', 8, 1_048_576, 200);
      try {
        // (That a connection is kept meanwhile is 'reuses connections' above, with the default.)
        await brief.getJson(`${server.origin}/doc`);
        expect(server.connections).toBe(1);
        await new Promise((resolve) => setTimeout(resolve, 600));
        await brief.getJson(`${server.origin}/doc`);
        expect(server.connections).toBe(2);
      } finally {
        brief.close();
      }
    });
  });

  describe('post', () => {
    it('delivers the body with its headers and returns the status', async () => {
      server.routes.set('/inbox', (_req, res) => res.writeHead(202).end());
      const body = JSON.stringify({ type: 'Follow' });
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const url = `${server.origin}/inbox`;
      const signed = new HttpSigner().sign({ method: 'POST', url, headers: {}, body }, { keyId: 'https://a/k', privateKey });
      await expect(fetcher.post(url, body, signed)).resolves.toEqual({ status: 202 });
      expect(server.seen[0].body.toString()).toBe(body);
      expect(server.seen[0].headers).toMatchObject({
        'content-type': 'application/activity+json',
        'content-length': String(body.length),
        digest: signed.Digest,
        signature: signed.Signature,
        host: `127.0.0.1:${server.port}`,
      });
    });

    it('counts a text body in bytes, not characters', async () => {
      server.routes.set('/inbox', (_req, res) => res.writeHead(202).end());
      const body = JSON.stringify({ type: 'Note', content: 'déjà vu, 日本語 🎉' });
      await expect(fetcher.post(`${server.origin}/inbox`, body, {})).resolves.toEqual({ status: 202 });
      expect(server.seen[0].body.toString('utf8')).toBe(body);
      expect(server.seen[0].headers['content-length']).toBe(String(Buffer.byteLength(body)));
      expect(Buffer.byteLength(body)).toBeGreaterThan(body.length);
    });

    it('sends once more on a new connection when a kept one was closed by the server as it was reused', async () => {
      // Its own server, keeping connections longer than the test runs, however slow the machine: the
      // second request on any connection finds it closed, as when a server drops an idle one just then.
      const keeping = await new LocalServer(600_000).start();
      const served = new WeakMap<object, number>();
      keeping.routes.set('/inbox', (req, res) => {
        const count = (served.get(req.socket) ?? 0) + 1;
        served.set(req.socket, count);
        if (count > 1) {
          req.socket.destroy();
        } else {
          res.writeHead(202).end();
        }
      });
      const url = `${keeping.origin}/inbox`;
      const fresh = new RemoteFetcher(true, 2_000);
      try {
        await expect(fetcher.post(url, '{}', {})).resolves.toEqual({ status: 202 });
        // As between two deliveries (each signed first): the first connection is idle again.
        await new Promise((resolve) => setImmediate(resolve));
        await expect(fetcher.post(url, '{}', {})).resolves.toEqual({ status: 202 });
        expect(keeping.requestsTo('/inbox')).toHaveLength(3);
        expect(keeping.connections).toBe(2);
        // A fresh connection that fails is not sent again at once: the delivery job retries later.
        keeping.routes.set('/inbox', (req) => req.socket.destroy());
        await expect(fresh.post(url, '{}', {})).rejects.toMatchObject({ retryable: true });
        expect(keeping.requestsTo('/inbox')).toHaveLength(4);
      } finally {
        fresh.close();
        await keeping.stop();
      }
    });

    it('never throws on HTTP errors and reads Retry-After', async () => {
      server.routes.set('/busy', (_req, res) => res.writeHead(429, { 'retry-after': '120' }).end('slow down'));
      server.routes.set('/broken', (_req, res) => res.writeHead(500).end('x'.repeat(3_000_000)));
      await expect(fetcher.post(`${server.origin}/busy`, '{}', {})).resolves.toEqual({ status: 429, retryAfter: 120 });
      await expect(fetcher.post(`${server.origin}/broken`, '{}', {})).resolves.toEqual({ status: 500 });
      await expect(fetcher.post(`${server.origin}/missing`, '{}', { 'Content-Type': 'application/ld+json' })).resolves.toEqual({ status: 404 });
      expect(server.seen[2].headers['content-type']).toBe('application/ld+json');
    });

    it('refuses a header value no HTTP request can carry, without retrying', async () => {
      await expect(fetcher.post(`${server.origin}/inbox`, '{}', { signature: 'a\r\nx-injected: 1' }))
        .rejects.toMatchObject({ retryable: false, code: 'EINVALID' });
      expect(server.seen).toHaveLength(0);
    });

    it('throws a retryable RemoteFetchError on network errors', async () => {
      const port = server.port;
      await server.stop();
      const error = await fetcher.post(`http://127.0.0.1:${port}/inbox`, '{}', {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RemoteFetchError);
      expect(error).toMatchObject({ retryable: true, code: 'ECONNREFUSED' });
      server = await new LocalServer().start();
    });

    it('throws a non-retryable SsrfBlockedError for refused addresses', async () => {
      const guarded = new RemoteFetcher(false);
      await expect(guarded.post(`${server.origin}/inbox`, '{}', {})).rejects.toMatchObject({ retryable: false, code: 'SSRF' });
      // Through DNS: the agent's lookup refuses, so nothing reaches the server.
      await expect(guarded.getJson(`http://localhost:${server.port}/inbox`)).rejects.toBeInstanceOf(SsrfBlockedError);
      expect(server.seen).toHaveLength(0);
      guarded.close();
    });

    it('keeps at most maxPerHost requests in flight per host', async () => {
      const limited = new RemoteFetcher(true, 5_000, 'Fedpod', 2);
      let active = 0;
      let peak = 0;
      server.routes.set('/inbox', (_req, res) => {
        active += 1;
        peak = Math.max(peak, active);
        setTimeout(() => {
          active -= 1;
          res.writeHead(202).end();
        }, 30);
      });
      const results = await Promise.all(Array.from({ length: 8 }, () => limited.post(`${server.origin}/inbox`, '{}', {})));
      expect(results.every((result) => result.status === 202)).toBe(true);
      expect(peak).toBe(2);
      limited.close();
    });
  });

  it('parses Retry-After dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:01:00 GMT', now)).toBe(60);
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('RemoteFetcher with suspended domains', () => {
  it('neither fetches from nor posts to a suspended host, and says so without retrying', async() => {
    const server = await new LocalServer().start();
    const fetcher = new RemoteFetcher(true, 2_000, 'Fedpod/test', 8, 1_048_576, 30_000,
      { refuses: async(host: string): Promise<boolean> => host === '127.0.0.1' });
    try {
      server.json('/users/alice', { id: 'x' });
      await expect(fetcher.getJson(`${server.origin}/users/alice`)).rejects.toMatchObject({ retryable: false, code: 'DOMAIN_BLOCKED' });
      await expect(fetcher.post(`${server.origin}/inbox`, '{}', {})).rejects.toMatchObject({ retryable: false, code: 'DOMAIN_BLOCKED' });
      expect(server.seen).toHaveLength(0);
    } finally {
      fetcher.close();
      await server.stop();
    }
  });
});
