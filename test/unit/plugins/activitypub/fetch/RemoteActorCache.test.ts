import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { RemoteDocumentError } from '../../../../../src/plugins/activitypub/fetch/FetchErrors';
import { RemoteActorCache } from '../../../../../src/plugins/activitypub/fetch/RemoteActorCache';
import { RemoteFetcher } from '../../../../../src/plugins/activitypub/fetch/RemoteFetcher';
import { HttpSignatureVerifier } from '../../../../../src/plugins/activitypub/signatures/HttpSignatureVerifier';
import { HttpSigner } from '../../../../../src/plugins/activitypub/signatures/HttpSigner';
import { LocalServer } from './localServer';

const pair1 = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pair2 = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (key: KeyObject): string => key.export({ type: 'spki', format: 'pem' }).toString();

describe('RemoteActorCache', () => {
  let server: LocalServer;
  let fetcher: RemoteFetcher;
  let alice: string;

  function actorDocument(id: string, publicKey: unknown = { id: `${id}#main-key`, owner: id, publicKeyPem: pem(pair1.publicKey) }): Record<string, unknown> {
    return {
      '@context': [ 'https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1' ],
      id,
      type: 'Person',
      inbox: `${id}/inbox`,
      publicKey,
    };
  }

  beforeEach(async () => {
    server = await new LocalServer().start();
    fetcher = new RemoteFetcher(true, 2_000);
    alice = `${server.origin}/users/alice`;
    server.json('/users/alice', actorDocument(alice));
  });

  afterEach(async () => {
    fetcher.close();
    await server.stop();
  });

  describe('getActor', () => {
    it('fetches with an ActivityStreams Accept header and caches', async () => {
      const cache = new RemoteActorCache(fetcher);
      const actor = await cache.getActor(alice);
      expect(actor).toMatchObject({ id: alice, inbox: `${alice}/inbox`, type: 'Person' });
      await cache.getActor(alice);
      await cache.getActor(`${alice}#fragment`);
      expect(server.requestsTo('/users/alice')).toHaveLength(1);
      expect(server.seen[0].headers.accept).toMatch(/^application\/activity\+json/u);
    });

    it('answers peekActor from memory only, for the IRI as given, with a fragment or not normalized', async () => {
      const cache = new RemoteActorCache(fetcher, 60_000);
      expect(cache.peekActor(alice)).toBeUndefined();
      await cache.getActor(alice);
      for (const iri of [ alice, `${alice}#main-key`, alice.replace('http://', 'HTTP://') ]) {
        expect(cache.peekActor(iri)).toMatchObject({ id: alice });
      }
      expect(cache.peekActor(`${server.origin}/users/bob`)).toBeUndefined();
      expect(() => cache.peekActor('not a url')).toThrow(RemoteDocumentError);
      expect(server.requestsTo('/users/alice')).toHaveLength(1);
    });

    it('refetches after the TTL, and on refresh', async () => {
      const cache = new RemoteActorCache(fetcher, 50, 0);
      await cache.getActor(alice);
      await new Promise((resolve) => setTimeout(resolve, 80));
      await cache.getActor(alice);
      expect(server.requestsTo('/users/alice')).toHaveLength(2);
      await cache.getActor(alice, { refresh: true });
      expect(server.requestsTo('/users/alice')).toHaveLength(3);
    });

    it('refreshes at most once per minRefreshMs', async () => {
      const cache = new RemoteActorCache(fetcher, 60_000, 60_000);
      await cache.getActor(alice);
      await cache.getActor(alice, { refresh: true });
      expect(server.requestsTo('/users/alice')).toHaveLength(1);
    });

    it('shares one fetch between concurrent lookups', async () => {
      const cache = new RemoteActorCache(fetcher);
      const actors = await Promise.all(Array.from({ length: 10 }, () => cache.getActor(alice)));
      expect(new Set(actors.map((actor) => actor.id))).toEqual(new Set([ alice ]));
      expect(server.requestsTo('/users/alice')).toHaveLength(1);
    });

    it('refuses a document whose id is not its URL', async () => {
      server.json('/users/mallory', actorDocument(alice));
      const cache = new RemoteActorCache(fetcher);
      await expect(cache.getActor(`${server.origin}/users/mallory`)).rejects.toThrow(RemoteDocumentError);
      await expect(cache.getActor(`${server.origin}/users/mallory`)).rejects.toThrow(/has the id/u);
    });

    it('accepts a redirect to the document\'s own id, and refuses other redirects', async () => {
      server.routes.set('/@alice', (_req, res) => res.writeHead(301, { location: '/users/alice' }).end());
      server.routes.set('/users/eve', (_req, res) => res.writeHead(302, { location: '/users/alice' }).end());
      const cache = new RemoteActorCache(fetcher);
      await expect(cache.getActor(`${server.origin}/@alice`)).resolves.toMatchObject({ id: alice });
      // Cached under both the asked URL and the id.
      await cache.getActor(alice);
      expect(server.requestsTo('/users/alice')).toHaveLength(1);

      server.json('/users/carol', actorDocument(`${server.origin}/users/dave`));
      server.routes.set('/users/dave', (_req, res) => res.writeHead(302, { location: '/users/carol' }).end());
      await expect(cache.getActor(`${server.origin}/users/dave`)).rejects.toThrow(/has the id/u);
    });

    it('refuses a document without inbox, a non-object and an error status, and remembers failures briefly', async () => {
      server.json('/no-inbox', { id: `${server.origin}/no-inbox`, type: 'Person' });
      server.json('/array', [ 1, 2 ]);
      const cache = new RemoteActorCache(fetcher, 60_000, 0, 50);
      await expect(cache.getActor(`${server.origin}/no-inbox`)).rejects.toThrow(/has no inbox/u);
      await expect(cache.getActor(`${server.origin}/array`)).rejects.toThrow(/not answer with a JSON object/u);
      await expect(cache.getActor(`${server.origin}/missing`)).rejects.toMatchObject({ status: 404 });
      await expect(cache.getActor(`${server.origin}/missing`)).rejects.toMatchObject({ status: 404 });
      expect(server.requestsTo('/missing')).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 80));
      await expect(cache.getActor(`${server.origin}/missing`)).rejects.toMatchObject({ status: 404 });
      expect(server.requestsTo('/missing')).toHaveLength(2);
    });

    it('signs fetches with the instance key once set', async () => {
      const cache = new RemoteActorCache(fetcher);
      const keyId = 'https://fedpod.example/actor#main-key';
      cache.useInstanceKey({ keyId, privateKey: pair2.privateKey });
      await cache.getActor(alice);
      const seen = server.seen[0];
      const result = await new HttpSignatureVerifier().verify(
        { method: 'GET', url: `${server.origin}${seen.url}`, headers: seen.headers },
        async () => ({ publicKey: pair2.publicKey, owner: 'https://fedpod.example/actor' }),
      );
      expect(result).toMatchObject({ ok: true, keyId });
    });
  });

  describe('getKey', () => {
    it('finds the key in the actor document and caches the KeyObject', async () => {
      const cache = new RemoteActorCache(fetcher);
      const key = await cache.getKey(`${alice}#main-key`);
      expect(key.owner).toBe(alice);
      expect(key.publicKey.equals(pair1.publicKey)).toBe(true);
      expect(await cache.getKey(`${alice}#main-key`)).toBe(key);
      // The actor came with it.
      await cache.getActor(alice);
      expect(server.requestsTo('/users/alice')).toHaveLength(1);
    });

    it('uses a cached actor document for its keys', async () => {
      const cache = new RemoteActorCache(fetcher);
      await cache.getActor(alice);
      await expect(cache.getKey(`${alice}#main-key`)).resolves.toMatchObject({ owner: alice });
      expect(server.requestsTo('/users/alice')).toHaveLength(1);
    });

    it('picks the key from a publicKey array', async () => {
      const bob = `${server.origin}/users/bob`;
      server.json('/users/bob', actorDocument(bob, [
        { id: `${bob}#main-key`, owner: bob, publicKeyPem: pem(pair1.publicKey) },
        { id: `${bob}#ed25519-key`, owner: bob, publicKeyPem: pem(pair2.publicKey) },
      ]));
      const cache = new RemoteActorCache(fetcher);
      const key = await cache.getKey(`${bob}#ed25519-key`);
      expect(key.publicKey.equals(pair2.publicKey)).toBe(true);
      await expect(cache.getKey(`${bob}#other-key`)).rejects.toThrow(/has no key/u);
    });

    it('accepts a key document whose owner lists it back, and nothing else', async () => {
      const keyId = `${server.origin}/keys/1`;
      const carol = `${server.origin}/users/carol`;
      server.json('/keys/1', { id: keyId, owner: carol, publicKeyPem: pem(pair2.publicKey) });
      server.json('/users/carol', actorDocument(carol, keyId));
      const cache = new RemoteActorCache(fetcher);
      const key = await cache.getKey(keyId);
      expect(key.owner).toBe(carol);
      expect(key.publicKey.equals(pair2.publicKey)).toBe(true);

      // A key document that claims alice, who does not list it.
      server.json('/keys/2', { id: `${server.origin}/keys/2`, owner: alice, publicKeyPem: pem(pair2.publicKey) });
      await expect(cache.getKey(`${server.origin}/keys/2`)).rejects.toThrow(/does not list the key/u);
    });

    it('refuses a key owned by someone else, a bad PEM, an id mismatch', async () => {
      const eve = `${server.origin}/users/eve`;
      server.json('/users/eve', actorDocument(eve, { id: `${eve}#main-key`, owner: alice, publicKeyPem: pem(pair1.publicKey) }));
      const frank = `${server.origin}/users/frank`;
      server.json('/users/frank', actorDocument(frank, { id: `${frank}#main-key`, owner: frank, publicKeyPem: 'garbage' }));
      server.json('/users/gina', actorDocument(alice));
      const cache = new RemoteActorCache(fetcher);
      await expect(cache.getKey(`${eve}#main-key`)).rejects.toThrow(/is owned by/u);
      await expect(cache.getKey(`${frank}#main-key`)).rejects.toThrow(/not a valid public key/u);
      await expect(cache.getKey(`${server.origin}/users/gina#main-key`)).rejects.toThrow(/has the id/u);
    });

    it('picks up a rotated key when a signature fails (through the verifier)', async () => {
      const cache = new RemoteActorCache(fetcher, 3_600_000, 0);
      const verifier = new HttpSignatureVerifier();
      const signer = new HttpSigner();
      const keyId = `${alice}#main-key`;
      const inbox = 'https://fedpod.example/users/bob/inbox';
      const body = '{"type":"Follow"}';
      const request = (privateKey: KeyObject): { method: string; url: string; headers: Record<string, string>; body: Buffer } => {
        const added = signer.sign({ method: 'POST', url: inbox, headers: {}, body }, { keyId, privateKey });
        const headers: Record<string, string> = { host: 'fedpod.example' };
        for (const [ name, value ] of Object.entries(added)) {
          headers[name.toLowerCase()] = value;
        }
        return { method: 'POST', url: inbox, headers, body: Buffer.from(body) };
      };
      await expect(verifier.verify(request(pair1.privateKey), cache.resolveKey)).resolves.toMatchObject({ ok: true, owner: alice });
      // Alice rotates her key.
      server.json('/users/alice', actorDocument(alice, { id: keyId, owner: alice, publicKeyPem: pem(pair2.publicKey) }));
      await expect(verifier.verify(request(pair2.privateKey), cache.resolveKey)).resolves.toMatchObject({ ok: true, owner: alice });
      expect(server.requestsTo('/users/alice')).toHaveLength(2);
      // The cached key is now the new one: no more fetches.
      await expect(verifier.verify(request(pair2.privateKey), cache.resolveKey)).resolves.toMatchObject({ ok: true });
      expect(server.requestsTo('/users/alice')).toHaveLength(2);
    });

    it('forgets an actor and its keys', async () => {
      const cache = new RemoteActorCache(fetcher);
      await cache.getKey(`${alice}#main-key`);
      cache.forget(alice);
      await cache.getKey(`${alice}#main-key`);
      expect(server.requestsTo('/users/alice')).toHaveLength(2);
    });
  });
});
