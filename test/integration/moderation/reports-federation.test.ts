/**
 * Reports and account suspension between two real Fedpod instances: A (http://localhost) and B
 * (http://127.0.0.2, the same machine under another host name). bob on A reports carol on B with a
 * copy to B (a Flag from A's instance actor), which lands in B's report queue; then A's operator
 * suspends carol: follows dropped both ways, her signed requests refused, her posts out of A's timelines.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { pageItemIds, postToOutbox, signup, type Session } from '../../support/local-actors';
import { api, type Json } from '../../support/moderation';
import { freePort } from '../../support/ports';

const AS = 'https://www.w3.org/ns/activitystreams';
const PUBLIC = `${AS}#Public`;
const B_HOST = '127.0.0.2';

describe('reports and suspension between two instances', () => {
  let a: FedpodServer;
  let b: FedpodServer;
  let alice: Session;
  let bob: Session;
  let carol: Session;
  let bea: Session;
  let carolId: string;
  let carolStatus: Json;

  beforeAll(async() => {
    const port = await freePort();
    const started = await Promise.allSettled([
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true }),
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true, port, baseUrl: `http://${B_HOST}:${port}/` }),
    ]);
    [ a, b ] = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined)) as [ FedpodServer, FedpodServer ];
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    [ alice, bob ] = await Promise.all([ signup(a.baseUrl, 'alice'), signup(a.baseUrl, 'bob') ]);
    [ carol, bea ] = await Promise.all([ signup(b.baseUrl, 'carol'), signup(b.baseUrl, 'bea') ]);
    // The operators: alice on A, bea on B (the operator routes, as `fedpod accounts role` asks them).
    for (const [ server, user ] of [[ a, 'alice' ], [ b, 'bea' ]] as const) {
      const operator = JSON.parse(readFileSync(path.join(server.dataDir, 'operator.json'), 'utf8'));
      const answer = await fetch(new URL('operator/roles', operator.localUrl), { method: 'POST',
        headers: { authorization: `Bearer ${operator.secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ user, role: 'operator' }) });
      expect(answer.status).toBe(200);
    }
    // bob follows carol and carol follows bob, across the two servers.
    expect((await postToOutbox(bob, { '@context': AS, type: 'Follow', object: carol.webId, to: [ carol.webId ] })).status).toBe(201);
    expect((await postToOutbox(carol, { '@context': AS, type: 'Follow', object: bob.webId, to: [ bob.webId ] })).status).toBe(201);
    await eventually(async() => (await pageItemIds(`${bob.webId}/following`)).includes(carol.webId));
    await eventually(async() => (await pageItemIds(`${bob.webId}/followers`)).includes(carol.webId));
    const note = await postToOutbox(carol, { '@context': AS, type: 'Note', content: 'carol sells pills', to: [ PUBLIC ],
      cc: [ `${carol.webId}/followers` ] });
    expect(note.status).toBe(201);
    carolStatus = await eventually(async() => (await api(`${a.baseUrl}api/v1/timelines/home?limit=40`, bob)).body
      .find((status: Json) => status.content.includes('carol sells pills')), 60_000);
    carolId = carolStatus.account.id;
  });

  afterAll(async() => {
    await Promise.allSettled([ a?.stop(), b?.stop() ]);
  });

  it('forwards a report to the reported account\'s server, where it lands in the queue', async() => {
    // The instance actor's inbox takes signed POSTs (an unsigned one is refused for its signature, not 404).
    expect((await fetch(`${b.baseUrl}actors/instance/inbox`, { method: 'POST', headers: { 'content-type': 'application/activity+json' },
      body: JSON.stringify({ type: 'Flag' }) })).status).toBe(401);

    const filed = await api(`${a.baseUrl}api/v1/reports`, bob, { method: 'POST',
      body: { account_id: carolId, status_ids: [ carolStatus.id ], comment: 'pills again', category: 'spam', forward: true } });
    expect(filed.status).toBe(200);
    expect(filed.body).toMatchObject({ forwarded: true, target_account: { id: carolId } });
    // A's queue has it too.
    expect((await api(`${a.baseUrl}api/v1/admin/reports`, alice)).body).toEqual([ expect.objectContaining({ id: filed.body.id }) ]);

    const received = await eventually(async() => (await api(`${b.baseUrl}api/v1/admin/reports`, bea)).body[0], 60_000);
    expect(received).toMatchObject({ comment: 'pills again', action_taken: false, target_account: { username: 'carol' },
      statuses: [ expect.objectContaining({ uri: carolStatus.uri }) ] });
    // The reporter stays unnamed: the Flag is the instance actor's.
    expect(received.account.account.uri).toBe(`${a.baseUrl}actors/instance`);
    expect((await api(`${b.baseUrl}api/v1/admin/reports`, carol)).status).toBe(403);
  });

  it('suspending a remote account drops its follows both ways, refuses its signed requests and hides its posts and notifications', async() => {
    const notifiedBy = async(): Promise<string[]> => (await api(`${a.baseUrl}api/v1/notifications`, bob)).body
      .map((notification: Json) => notification.account.id);
    // carol's follow notified bob.
    await eventually(async() => (await notifiedBy()).includes(carolId));
    expect((await api(`${a.baseUrl}api/v1/admin/accounts/${carolId}/action`, bob, { method: 'POST', body: { type: 'suspend' } })).status)
      .toBe(403);
    const acted = await api(`${a.baseUrl}api/v1/admin/accounts/${carolId}/action`, alice, { method: 'POST', body: { type: 'suspend' } });
    expect(acted.status).toBe(200);
    expect(await pageItemIds(`${bob.webId}/following`)).not.toContain(carol.webId);
    expect(await pageItemIds(`${bob.webId}/followers`)).not.toContain(carol.webId);
    expect((await api(`${a.baseUrl}api/v1/timelines/home?limit=40`, bob)).body.some((status: Json) => status.uri === carolStatus.uri))
      .toBe(false);
    expect(await notifiedBy()).not.toContain(carolId);
    expect((await api(`${a.baseUrl}api/v2/admin/accounts?origin=remote&status=suspended`, alice)).body)
      .toEqual([ expect.objectContaining({ id: carolId, domain: expect.stringContaining(B_HOST), suspended: true }) ]);

    // Her signed request (its signature is not even checked) is refused with 403.
    const refused = await fetch(`${a.baseUrl}inbox`, { method: 'POST', body: '{ not json',
      headers: { 'content-type': 'application/activity+json', date: new Date().toUTCString(), digest: 'SHA-256=AAAA',
        signature: `keyId="${carol.webId}#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="AAAA"` } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: 'account_suspended', message: expect.any(String) });
    // bea, on the same server, is not refused (her bad signature is: 401).
    const other = await fetch(`${a.baseUrl}inbox`, { method: 'POST', body: '{ not json',
      headers: { 'content-type': 'application/activity+json', date: new Date().toUTCString(), digest: 'SHA-256=AAAA',
        signature: `keyId="${bea.webId}#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="AAAA"` } });
    expect(other.status).toBe(401);
  });
});
