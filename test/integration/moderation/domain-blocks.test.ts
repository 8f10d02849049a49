/**
 * Domain blocks between two real Fedpod instances: A (http://localhost) and B (http://127.0.0.2, the
 * same machine under another host name). A's operator silences, then suspends B's domain through
 * the Mastodon admin API and the command line; what each severity hides, refuses and drops is read
 * back over HTTP on both instances. Then mutes, among three local users of A.
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { pageItemIds, postToOutbox, signup, type Session } from '../../support/local-actors';
import { api, cli, type Json } from '../../support/moderation';
import { freePort } from '../../support/ports';
import { makeTempDir } from '../../support/processes';

const AS = 'https://www.w3.org/ns/activitystreams';
const PUBLIC = `${AS}#Public`;
const B_HOST = '127.0.0.2';

/** The contents of a Mastodon timeline's statuses, as the session reads it. */
async function timeline(server: FedpodServer, name: 'home' | 'public', session: Session): Promise<string[]> {
  const answer = await api(`${server.baseUrl}api/v1/timelines/${name}?limit=40`, session);
  expect(answer.status).toBe(200);
  return (answer.body as { content: string; reblog: { content: string } | null }[]).map((status) => status.reblog?.content ?? status.content);
}

/** Whether the server's fan-out and delivery queues have nothing waiting, delayed or running. */
async function deliveriesDone(server: FedpodServer): Promise<boolean> {
  const metrics = await (await fetch(`${server.baseUrl}metrics`)).text();
  return metrics.split('\n').filter((line) => line.startsWith('fedpod_queue_jobs{') && /queue="ap-(?:fanout|delivery)"/u.test(line) &&
    /state="(?:waiting|delayed|active)"/u.test(line)).every((line) => Number(line.split(' ').at(-1)) === 0);
}

describe('domain blocks between two instances, and mutes', () => {
  let a: FedpodServer;
  let b: FedpodServer;
  let alice: Session;
  let bob: Session;
  let carol: Session;
  let note = 0;

  beforeAll(async() => {
    const port = await freePort();
    const started = await Promise.allSettled([
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true, extraArgs: [ '--metrics' ] }),
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true, port, baseUrl: `http://${B_HOST}:${port}/`, extraArgs: [ '--metrics' ] }),
    ]);
    [ a, b ] = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined)) as [ FedpodServer, FedpodServer ];
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    alice = await signup(a.baseUrl, 'alice');
    bob = await signup(a.baseUrl, 'bob');
    carol = await signup(`http://${B_HOST}:${port}/`, 'carol');
    expect((await cli(a, [ 'accounts', 'role', 'alice', 'operator' ])).stdout).toContain('alice: operator');
    // alice follows carol and carol follows alice, across the two servers.
    expect((await postToOutbox(alice, { '@context': AS, type: 'Follow', object: carol.webId, to: [ carol.webId ] })).status).toBe(201);
    expect((await postToOutbox(carol, { '@context': AS, type: 'Follow', object: alice.webId, to: [ alice.webId ] })).status).toBe(201);
    await eventually(async() => (await pageItemIds(`${alice.webId}/following`)).includes(carol.webId));
    await eventually(async() => (await pageItemIds(`${alice.webId}/followers`)).includes(carol.webId));
  });

  afterAll(async() => {
    await Promise.allSettled([ a?.stop(), b?.stop() ]);
  });

  async function carolPosts(): Promise<string> {
    note += 1;
    const content = `carol's public note ${note}`;
    expect((await postToOutbox(carol, { '@context': AS, type: 'Note', content, to: [ PUBLIC ], cc: [ `${carol.webId}/followers` ] })).status)
      .toBe(201);
    return content;
  }

  /** A signed POST to A's inbox whose key is on B (its signature is not even valid, and its body not JSON). */
  async function signedPostFromB(): Promise<{ status: number; body: Json }> {
    const response = await fetch(`${a.baseUrl}inbox`, { method: 'POST', body: '{ not json',
      headers: { 'content-type': 'application/activity+json', date: new Date().toUTCString(), digest: 'SHA-256=AAAA',
        signature: `keyId="${carol.webId}#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="AAAA"` } });
    return { status: response.status, body: await response.json() };
  }

  it('refuses moderation to anyone but an operator: 401 without a token, 403 for a user', async() => {
    expect((await api(`${a.baseUrl}api/v1/admin/domain_blocks`, undefined)).status).toBe(401);
    const refused = await api(`${a.baseUrl}api/v1/admin/domain_blocks`, bob, { method: 'POST', body: { domain: B_HOST, severity: 'suspend' } });
    expect(refused).toEqual({ status: 403, body: expect.objectContaining({ error: 'This action is not allowed' }) });
    expect((await api(`${a.baseUrl}api/v1/admin/domain_blocks`, alice)).body).toEqual([]);
  });

  it('reject_media: the domain\'s posts are shown without their media; lifting it shows them again', async() => {
    const content = 'carol\'s picture';
    expect((await postToOutbox(carol, { '@context': AS, type: 'Note', content, to: [ PUBLIC ], cc: [ `${carol.webId}/followers` ],
      attachment: [{ type: 'Image', mediaType: 'image/png', url: `http://${B_HOST}/media/picture.png`, name: 'a picture' }] })).status).toBe(201);
    const mediaOf = async(): Promise<number | undefined> => {
      const answer = await api(`${a.baseUrl}api/v1/timelines/home?limit=40`, alice);
      const status = (answer.body as { content: string; media_attachments: unknown[] }[]).find((entry) => entry.content.includes(content));
      return status?.media_attachments.length;
    };
    expect(await eventually(async() => mediaOf())).toBe(1);
    const created = await api(`${a.baseUrl}api/v1/admin/domain_blocks`, alice, { method: 'POST',
      body: { domain: B_HOST, severity: 'noop', reject_media: true } });
    expect(created.body).toMatchObject({ domain: B_HOST, severity: 'noop', reject_media: true });
    expect(await mediaOf()).toBe(0);
    expect((await api(`${a.baseUrl}api/v1/admin/domain_blocks/${B_HOST}`, alice, { method: 'DELETE' })).status).toBe(200);
    expect(await mediaOf()).toBe(1);
  });

  it('silence: the domain\'s posts leave the public timeline and stay in their followers\' home', async() => {
    const content = await carolPosts();
    await eventually(async() => (await timeline(a, 'public', bob)).some((text) => text.includes(content)));
    const created = await api(`${a.baseUrl}api/v1/admin/domain_blocks`, alice, { method: 'POST',
      body: { domain: B_HOST, severity: 'silence', public_comment: 'too loud', private_comment: 'see report' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ id: B_HOST, domain: B_HOST, severity: 'silence', public_comment: 'too loud', private_comment: 'see report' });
    expect((await timeline(a, 'public', bob)).some((text) => text.includes(content))).toBe(false);
    expect((await timeline(a, 'public', alice)).some((text) => text.includes(content))).toBe(false);
    expect((await timeline(a, 'home', alice)).some((text) => text.includes(content))).toBe(true);
    // A second POST of the same domain: Mastodon's 422.
    expect((await api(`${a.baseUrl}api/v1/admin/domain_blocks`, alice, { method: 'POST', body: { domain: B_HOST } })).status).toBe(422);
    // Silenced, not suspended: B's signed requests are still verified (this one's signature is bad: 401).
    expect((await signedPostFromB()).status).toBe(401);
  });

  it('suspend: follows dropped both ways, signed requests refused before any work, nothing delivered', async() => {
    // A control first: a direct message reaches carol on B while B is only silenced.
    const before = await postToOutbox(alice, { '@context': AS, type: 'Note', content: 'before', to: [ carol.webId ] });
    await eventually(async() => (await pageItemIds(`${carol.webId}/inbox`, carol)).includes(before.body.id as string));

    const added = await cli(a, [ 'domain-blocks', 'add', B_HOST, '--severity', 'suspend', '--public-comment', 'spam' ]);
    expect(added).toMatchObject({ code: 0, stdout: `blocked ${B_HOST} (suspend)\n` });
    expect(await pageItemIds(`${alice.webId}/following`)).not.toContain(carol.webId);
    expect(await pageItemIds(`${alice.webId}/followers`)).not.toContain(carol.webId);
    expect((await timeline(a, 'home', alice)).some((text) => text.includes('carol'))).toBe(false);

    const refused = await signedPostFromB();
    expect(refused).toEqual({ status: 403, body: { error: 'domain_blocked', message: expect.any(String) } });

    const after = await postToOutbox(alice, { '@context': AS, type: 'Note', content: 'after', to: [ carol.webId ] });
    expect(after.status).toBe(201);
    await eventually(async() => deliveriesDone(a), 60_000);
    expect(await pageItemIds(`${carol.webId}/inbox`, carol)).not.toContain(after.body.id as string);
  });

  it('lists, exports and imports Mastodon\'s CSV on the command line; the public list; the audit log', async() => {
    const csv = path.join(makeTempDir('domain-blocks'), 'blocks.csv');
    writeFileSync(csv, '#domain,#severity,#reject_media,#reject_reports,#public_comment,#obfuscate\n' +
      'spam.example,suspend,true,true,"spam, mostly",false\nloud.example,silence,false,false,,true\n');
    expect(await cli(a, [ 'domain-blocks', 'import', csv ])).toMatchObject({ code: 0, stdout: 'imported 2 domain blocks\n' });
    const exported = await cli(a, [ 'domain-blocks', 'export' ]);
    expect(exported.stdout.split('\n')).toEqual([
      '#domain,#severity,#reject_media,#reject_reports,#public_comment,#obfuscate',
      `${B_HOST},suspend,false,false,spam,false`,
      'loud.example,silence,false,false,,true',
      'spam.example,suspend,true,true,"spam, mostly",false',
      '',
    ]);
    expect((await cli(a, [ 'domain-blocks', 'list' ])).stdout).toContain('spam.example\tsuspend\treject_media\tspam, mostly');
    const shown = await api(`${a.baseUrl}api/v1/instance/domain_blocks`, undefined);
    expect(shown.body).toContainEqual(expect.objectContaining({ domain: 'l*u*.example', severity: 'silence' }));
    // A bad row: nothing of the file is stored.
    writeFileSync(csv, '#domain,#severity\nok.example,silence\nbad.example,explode\n');
    expect((await cli(a, [ 'domain-blocks', 'import', csv ])).code).toBe(1);
    expect((await cli(a, [ 'domain-blocks', 'list' ])).stdout).not.toContain('ok.example');

    const log = (await cli(a, [ 'audit-log' ])).stdout;
    expect(log).toMatch(new RegExp(`\\talice\\tdomain_block\\.create\\t${B_HOST.replace(/\./gu, '\\.')}\\t`, 'u'));
    expect(log).toMatch(/\toperator\tdomain_block\.update\t127\.0\.0\.2\t/u);
    expect(log).toMatch(/\toperator\taccount\.role\t/u);
  });

  it('removing the block lets B in again', async() => {
    expect((await api(`${a.baseUrl}api/v1/admin/domain_blocks/${B_HOST}`, bob, { method: 'DELETE' })).status).toBe(403);
    expect((await api(`${a.baseUrl}api/v1/admin/domain_blocks/${B_HOST}`, alice, { method: 'DELETE' })).status).toBe(200);
    expect((await api(`${a.baseUrl}api/v1/admin/domain_blocks/${B_HOST}`, alice)).status).toBe(404);
    expect((await signedPostFromB()).status).toBe(401);
    expect((await cli(a, [ 'domain-blocks', 'remove', B_HOST ])).code).toBe(1);
  });

  it('mutes: a muted account\'s posts leave the muter\'s timelines, not anyone else\'s; unmute brings them back', async() => {
    const dave = await signup(a.baseUrl, 'dave');
    expect((await postToOutbox(alice, { '@context': AS, type: 'Follow', object: bob.webId, to: [ bob.webId ] })).status).toBe(201);
    await eventually(async() => (await pageItemIds(`${alice.webId}/following`)).includes(bob.webId));
    expect((await postToOutbox(bob, { '@context': AS, type: 'Note', content: 'bob speaks', to: [ PUBLIC ], cc: [ `${bob.webId}/followers` ] }))
      .status).toBe(201);
    await eventually(async() => (await timeline(a, 'home', alice)).some((text) => text.includes('bob speaks')));
    const muted = await api(`${a.baseUrl}api/v1/accounts/bob/mute`, alice, { method: 'POST', body: { notifications: false } });
    expect(muted).toEqual({ status: 200, body: expect.objectContaining({ id: 'bob', muting: true, muting_notifications: false }) });
    expect((await api(`${a.baseUrl}api/v1/mutes`, alice)).body).toEqual([ expect.objectContaining({ id: 'bob' }) ]);
    expect((await api(`${a.baseUrl}api/v1/mutes`, dave)).body).toEqual([]);
    expect((await timeline(a, 'home', alice)).some((text) => text.includes('bob speaks'))).toBe(false);
    expect((await timeline(a, 'public', alice)).some((text) => text.includes('bob speaks'))).toBe(false);
    expect((await timeline(a, 'public', dave)).some((text) => text.includes('bob speaks'))).toBe(true);
    expect((await api(`${a.baseUrl}api/v1/accounts/bob/mute`, undefined, { method: 'POST' })).status).toBe(401);
    expect((await api(`${a.baseUrl}api/v1/accounts/nobody/mute`, alice, { method: 'POST' })).status).toBe(404);
    expect((await api(`${a.baseUrl}api/v1/accounts/bob/unmute`, alice, { method: 'POST' })).body).toMatchObject({ muting: false });
    expect((await timeline(a, 'home', alice)).some((text) => text.includes('bob speaks'))).toBe(true);
  });
});
