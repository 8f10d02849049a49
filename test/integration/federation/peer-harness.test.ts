/**
 * The federation test harness itself: the run's CA and certificate, the HTTPS
 * proxy in front of Fedpod, and the Fedify peer (a real ActivityPub server).
 * Uses only what Fedpod already has (accounts, actors, WebFinger, LDP); the
 * federation tests proper build on these helpers.
 */
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFedifyPeer, type FedifyPeer } from '../../support/fedify-peer';
import { startHttpsFedpod, startHttpsProxy, type HttpsFedpod } from '../../support/https-proxy';
import { freePort } from '../../support/ports';
import { httpsRequest, testTls, type TlsFiles } from '../../support/tls';

const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

interface Echo { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }

/** A plain HTTP server that answers every request with what it received. */
async function startEcho(): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const echo: Echo = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      res.writeHead(207, { 'content-type': 'application/json', 'x-echo': 'yes', 'set-cookie': [ 'a=1', 'b=2' ] });
      res.end(JSON.stringify(echo));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

function normalizePem(pem: string): string {
  return pem.replace(/\s+/gu, '');
}

describe('federation harness: TLS, HTTPS proxy, Fedify peer', () => {
  let tls: TlsFiles;
  let fedpod: HttpsFedpod;
  let ldp: HttpsFedpod;
  let peer: FedifyPeer;
  let other: FedifyPeer;
  const timings: Record<string, number> = {};

  async function timed<T>(name: string, start: () => Promise<T>): Promise<T> {
    const began = Date.now();
    const value = await start();
    timings[name] = Date.now() - began;
    return value;
  }

  beforeAll(async() => {
    tls = await timed('tls', async() => testTls());
    const started = await Promise.allSettled([
      timed('fedpod activitypub', () => startHttpsFedpod({ config: 'activitypub', tls })),
      timed('fedpod ldp', () => startHttpsFedpod({ config: 'ldp', tls })),
      timed('peer', () => startFedifyPeer(tls)),
      // Signs with RFC 9421 HTTP Message Signatures first (the other one: draft-cavage, as Mastodon).
      timed('second peer', () => startFedifyPeer({ ...tls, firstKnock: 'rfc9421' })),
    ]);
    [ fedpod, ldp, peer, other ] = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined)) as
      [ HttpsFedpod, HttpsFedpod, FedifyPeer, FedifyPeer ];
    const failed = started.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
  });

  afterAll(async() => {
    await Promise.allSettled([ fedpod?.stop(), ldp?.stop(), peer?.stop(), other?.stop() ]);
    process.stderr.write(`[peer-harness] start-up times (ms): ${JSON.stringify(timings)}\n`);
  });

  describe('tls', () => {
    it('makes one CA and a localhost / 127.0.0.1 server certificate signed by it, once per run', () => {
      expect(testTls()).toEqual(tls);
      const ca = new X509Certificate(fs.readFileSync(tls.caFile));
      const cert = new X509Certificate(fs.readFileSync(tls.certFile));
      expect(ca.ca).toBe(true);
      expect(cert.ca).toBe(false);
      expect(cert.checkIssued(ca)).toBe(true);
      expect(cert.verify(ca.publicKey)).toBe(true);
      expect(cert.checkHost('localhost')).toBe('localhost');
      expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
      expect(cert.subjectAltName).toContain('DNS:localhost');
    });
  });

  describe('https proxy', () => {
    it('forwards method, path, body and headers, keeps Host and sets X-Forwarded-*', async() => {
      const echo = await startEcho();
      const proxy = await startHttpsProxy({ targetPort: echo.port, certFile: tls.certFile, keyFile: tls.keyFile });
      try {
        expect(proxy.url).toBe(`https://localhost:${proxy.port}/`);
        const body = JSON.stringify({ big: 'x'.repeat(200_000) });
        const answer = await httpsRequest(`${proxy.url}some/path?q=1`, {
          method: 'POST', body, headers: { 'content-type': 'application/activity+json', connection: 'keep-alive, x-private', 'x-private': 'hop' },
        });
        expect(answer.status).toBe(207);
        expect(answer.headers['x-echo']).toBe('yes');
        expect(answer.headers['set-cookie']).toEqual([ 'a=1', 'b=2' ]);
        const echoed = answer.json<Echo>();
        expect(echoed).toMatchObject({ method: 'POST', url: '/some/path?q=1', body });
        expect(echoed.headers).toMatchObject({
          host: `localhost:${proxy.port}`,
          'x-forwarded-proto': 'https',
          'x-forwarded-host': `localhost:${proxy.port}`,
          'x-forwarded-for': '127.0.0.1',
          'content-type': 'application/activity+json',
        });
        expect(echoed.headers['x-private']).toBeUndefined();
      } finally {
        await proxy.stop();
        await echo.close();
      }
    });

    it('answers 502 while nothing listens behind it', async() => {
      const proxy = await startHttpsProxy({ targetPort: await freePort(), certFile: tls.certFile, keyFile: tls.keyFile });
      try {
        const answer = await httpsRequest(`${proxy.url}healthz`);
        expect(answer.status).toBe(502);
      } finally {
        await proxy.stop();
      }
    });

    it('gives LDP (CSS) the https base: /notes/ and new members get https://localhost:P/ ids', async() => {
      const notes = `${ldp.baseUrl}notes/`;
      expect(ldp.baseUrl).toBe(`https://localhost:${ldp.proxy.port}/`);
      const created = await httpsRequest(notes, {
        method: 'POST', headers: { 'content-type': 'application/ld+json' },
        body: JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', type: 'Note', content: 'through the proxy' }),
      });
      expect(created.status).toBe(201);
      const location = String(created.headers.location);
      expect(location.startsWith(notes)).toBe(true);
      const listing = await httpsRequest(notes, { headers: { accept: 'application/ld+json' } });
      expect(listing.status).toBe(200);
      const json = listing.json<{ id: string; 'ldp:contains': { id: string }[] }>();
      expect(json.id).toBe(notes);
      expect(json['ldp:contains'].map((member) => member.id)).toContain(location);
      expect(listing.body).not.toContain(`http://localhost:${ldp.port}`);
    });
  });

  describe('Fedpod behind the proxy, seen by the Fedify peer', () => {
    let webId: string;

    it('signs up a user through the proxy: the WebID is under the https base', async() => {
      expect(fedpod.baseUrl).toBe(`https://localhost:${fedpod.proxy.port}/`);
      const health = await httpsRequest(`${fedpod.baseUrl}healthz`);
      expect(health.status).toBe(200);
      const signup = await httpsRequest(`${fedpod.baseUrl}auth/signup`, {
        method: 'POST', body: { username: 'alice', email: 'alice@example.com', password: 'correct horse' },
      });
      expect(signup.status).toBe(201);
      webId = signup.json<{ webId: string }>().webId;
      expect(webId).toBe(`${fedpod.baseUrl}actors/alice`);
      expect(signup.headers.location).toBe(webId);
    });

    it('the peer finds alice by WebFinger and reads her actor with Fedify: a Person with the right inbox and key', async() => {
      const actorDoc = (await httpsRequest(webId, { headers: { accept: 'application/activity+json' } }))
        .json<{ publicKey: { publicKeyPem: string } }>();
      const lookup = await peer.lookup(`acct:alice@${fedpod.proxy.host}`);
      expect(lookup.errors).toEqual([]);
      expect(lookup.webfinger).toMatchObject({ subject: `acct:alice@${fedpod.proxy.host}` });
      expect(lookup.webfinger!.links).toContainEqual(expect.objectContaining({ rel: 'self', type: 'application/activity+json', href: webId }));
      expect(lookup.summary).toMatchObject({
        id: webId,
        type: 'Person',
        preferredUsername: 'alice',
        inbox: `${webId}/inbox`,
        outbox: `${webId}/outbox`,
        followers: `${webId}/followers`,
        following: `${webId}/following`,
        sharedInbox: `${fedpod.baseUrl}inbox`,
        publicKey: { id: `${webId}#main-key`, owner: webId, algorithm: 'RSASSA-PKCS1-v1_5' },
      });
      expect(normalizePem(lookup.summary!.publicKey!.pem!)).toBe(normalizePem(actorDoc.publicKey.publicKeyPem));
      // By URL too (no WebFinger step).
      const byUrl = await peer.lookup(webId);
      expect(byUrl.summary).toMatchObject({ id: webId, type: 'Person' });
    });

    it('unknown accounts are not found', async() => {
      const lookup = await peer.lookup(`acct:nobody@${fedpod.proxy.host}`);
      expect(lookup.summary).toBeNull();
    });
  });

  describe('the Fedify peer', () => {
    it('answers WebFinger and serves its actor over HTTPS', async() => {
      expect(peer.url).toBe(`https://localhost:${peer.port}/`);
      expect(peer.handle).toBe(`peer@localhost:${peer.port}`);
      const finger = await httpsRequest(`${peer.url}.well-known/webfinger?resource=acct:${peer.handle}`);
      expect(finger.status).toBe(200);
      expect(finger.json()).toMatchObject({
        subject: `acct:${peer.handle}`,
        links: expect.arrayContaining([ expect.objectContaining({ rel: 'self', type: 'application/activity+json', href: peer.actorUrl }) ]),
      });
      const actor = await httpsRequest(peer.actorUrl, { headers: { accept: 'application/activity+json' } });
      expect(actor.status).toBe(200);
      expect(actor.json()).toMatchObject({
        id: peer.actorUrl,
        type: 'Person',
        preferredUsername: 'peer',
        inbox: `${peer.actorUrl}/inbox`,
        outbox: `${peer.actorUrl}/outbox`,
        followers: `${peer.actorUrl}/followers`,
        endpoints: { sharedInbox: peer.sharedInboxUrl },
        publicKey: { id: `${peer.actorUrl}#main-key`, owner: peer.actorUrl },
      });
    });

    it('follows another peer with a signed Follow and gets a signed Accept back (both signature schemes)', async() => {
      const follow = await other.follow(peer.handle);
      expect(follow.target).toBe(peer.actorUrl);
      const received = await peer.waitFor((a) => a.type === 'Follow' && a.id === follow.id);
      expect(received).toMatchObject({ actor: other.actorUrl, objectId: peer.actorUrl, verified: true, recipient: 'peer', signatureScheme: 'rfc9421' });
      const accept = await other.waitFor((a) => a.type === 'Accept' && a.objectId === follow.id);
      expect(accept).toMatchObject({ actor: peer.actorUrl, verified: true, signatureScheme: 'draft-cavage' });
      expect(await peer.followers()).toContainEqual(expect.objectContaining({ id: other.actorUrl, followId: follow.id }));
      expect(await other.following()).toContainEqual({ id: peer.actorUrl, followId: follow.id, state: 'accepted' });
      expect(await peer.sent()).toContainEqual(expect.objectContaining({ type: 'Accept', ok: true, inboxes: [ `${other.actorUrl}/inbox` ] }));
    });

    it('sends an arbitrary activity to its followers, and serves what it published', async() => {
      const sent = await peer.send({
        type: 'Create',
        to: [ AS_PUBLIC ],
        cc: [ `${peer.actorUrl}/followers` ],
        object: { type: 'Note', content: 'hello from the peer', attributedTo: peer.actorUrl, to: [ AS_PUBLIC ] },
      });
      expect(sent.recipients).toEqual([ other.actorUrl ]);
      const create = await other.waitFor((a) => a.type === 'Create' && a.id === sent.id);
      expect(create).toMatchObject({ actor: peer.actorUrl, verified: true });
      const noteId = (sent.activity.object as { id: string }).id;
      expect(create.objectId).toBe(noteId);
      const note = await httpsRequest(noteId, { headers: { accept: 'application/activity+json' } });
      expect(note.json()).toMatchObject({ id: noteId, type: 'Note', content: 'hello from the peer' });
    });

    it('records an unsigned delivery as unverified and answers 401', async() => {
      const id = `${other.url}activities/unsigned`;
      const answer = await httpsRequest(`${peer.actorUrl}/inbox`, {
        method: 'POST', headers: { 'content-type': 'application/activity+json' },
        body: JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', id, type: 'Like', actor: other.actorUrl, object: peer.actorUrl }),
      });
      expect(answer.status).toBe(401);
      const like = await peer.waitFor((a) => a.id === id);
      expect(like).toMatchObject({ type: 'Like', verified: false, reason: { type: 'noSignature' } });
      expect(await peer.requests()).toContainEqual(expect.objectContaining({ id, status: 401, signatureScheme: null }));
    });

    it('reset() forgets everything', async() => {
      await peer.reset();
      expect(await peer.received()).toEqual([]);
      expect(await peer.followers()).toEqual([]);
      expect(await peer.sent()).toEqual([]);
    });
  });
});
