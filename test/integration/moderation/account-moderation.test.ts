/**
 * Account moderation and reports on one real Fedpod: an operator (olive), a reporter (rita), the
 * reported account (dan) and a stranger (sam). Reports are filed and read through the Mastodon API,
 * worked through the admin API, the command line and the operator pages; suspension, silencing and
 * sensitive marks are read back over HTTP; and the report queue is read again after a restart.
 */
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { postToOutbox, signup, type Session } from '../../support/local-actors';
import { RawStream } from '../../support/mastodon-streams';
import { api, cli, type Json } from '../../support/moderation';

const AS = 'https://www.w3.org/ns/activitystreams';

async function login(server: FedpodServer, username: string): Promise<{ status: number; body: Json }> {
  return api(`${server.baseUrl}auth/login`, undefined, { method: 'POST', body: { username, password: 'correct horse' } });
}

/** The session cookie of the account pages, from the login form. */
async function pageCookie(server: FedpodServer, username: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}auth/login`, { method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    body: new URLSearchParams({ username, password: 'correct horse' }).toString() });
  expect(response.status).toBe(303);
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('fedpod_session='));
  return cookie!.split(';')[0];
}

async function page(url: string, cookie: string, form?: Record<string, string>): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { method: form ? 'POST' : 'GET', redirect: 'manual',
    headers: { cookie, accept: 'text/html', ...form ? { 'content-type': 'application/x-www-form-urlencoded' } : {} },
    ...form ? { body: new URLSearchParams(form).toString() } : {} });
  return { status: response.status, text: await response.text() };
}

describe('account moderation and reports', () => {
  let server: FedpodServer;
  let olive: Session;
  let rita: Session;
  let dan: Session;
  let sam: Session;
  let danNote: string;
  let danStatusId: string;
  let reportId: string;

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub' });
    [ olive, rita, dan, sam ] = await Promise.all([ 'olive', 'rita', 'dan', 'sam' ].map(async(name) => signup(server.baseUrl, name)));
    expect((await cli(server, [ 'accounts', 'role', 'olive', 'operator' ])).stdout).toContain('olive: operator');
    // rita follows dan (dan's followers still see a silenced dan at home).
    expect((await postToOutbox(rita, { '@context': AS, type: 'Follow', object: dan.webId, to: [ dan.webId ] })).status).toBe(201);
    const posted = await api(`${server.baseUrl}api/v1/statuses`, dan, { method: 'POST', body: { status: 'dan says buy my pills', visibility: 'public' } });
    expect(posted.status).toBe(200);
    danStatusId = posted.body.id;
    danNote = posted.body.uri;
  });

  afterAll(async() => {
    await server?.stop();
  });

  async function publicTimeline(session: Session): Promise<Json[]> {
    const answer = await api(`${server.baseUrl}api/v1/timelines/public?limit=40`, session);
    expect(answer.status).toBe(200);
    return answer.body;
  }

  it('files a report that only its reporter (and the operators) can read', async() => {
    const filed = await api(`${server.baseUrl}api/v1/reports`, rita, { method: 'POST',
      body: { account_id: 'dan', status_ids: [ danStatusId ], comment: 'spam pills', category: 'spam' } });
    expect(filed.status).toBe(200);
    expect(filed.body).toMatchObject({ action_taken: false, category: 'spam', comment: 'spam pills', forwarded: false,
      status_ids: [ danStatusId ], target_account: { id: 'dan' } });
    reportId = filed.body.id;

    expect((await api(`${server.baseUrl}api/v1/reports`, rita)).body.map((report: Json) => report.id)).toEqual([ reportId ]);
    expect((await api(`${server.baseUrl}api/v1/reports`, sam)).body).toEqual([]);
    expect((await api(`${server.baseUrl}api/v1/reports/${reportId}`, sam)).status).toBe(404);
    expect((await api(`${server.baseUrl}api/v1/reports/${reportId}`, rita)).status).toBe(200);

    // Bad input: 4xx, nothing stored.
    expect((await api(`${server.baseUrl}api/v1/reports`, rita, { method: 'POST', body: { account_id: 'nobody' } })).status).toBe(404);
    expect((await api(`${server.baseUrl}api/v1/reports`, rita, { method: 'POST', body: { account_id: 'dan', category: 'bogus' } })).status)
      .toBe(400);
    expect((await api(`${server.baseUrl}api/v1/reports`, rita, { method: 'POST', body: { account_id: 'sam', status_ids: [ danStatusId ] } }))
      .status).toBe(422);
    expect((await api(`${server.baseUrl}api/v1/reports`, undefined, { method: 'POST', body: { account_id: 'dan' } })).status).toBe(401);
    expect((await api(`${server.baseUrl}api/v1/reports`, rita)).body).toHaveLength(1);
  });

  it('refuses every admin route, page and operator command to whoever is no operator', async() => {
    const routes: [string, string][] = [
      [ 'GET', 'api/v1/admin/accounts' ], [ 'GET', 'api/v2/admin/accounts' ], [ 'GET', 'api/v1/admin/accounts/dan' ],
      [ 'POST', 'api/v1/admin/accounts/dan/action' ], [ 'POST', 'api/v1/admin/accounts/dan/unsuspend' ],
      [ 'POST', 'api/v1/admin/accounts/dan/unsilence' ], [ 'POST', 'api/v1/admin/accounts/dan/unsensitive' ],
      [ 'GET', 'api/v1/admin/reports' ], [ 'GET', `api/v1/admin/reports/${reportId}` ],
      [ 'POST', `api/v1/admin/reports/${reportId}/resolve` ], [ 'POST', `api/v1/admin/reports/${reportId}/reopen` ],
    ];
    for (const [ method, route ] of routes) {
      const body = method === 'POST' ? { type: 'suspend' } : undefined;
      expect([ route, (await api(`${server.baseUrl}${route}`, sam, { method, body })).status ]).toEqual([ route, 403 ]);
      expect([ route, (await api(`${server.baseUrl}${route}`, rita, { method, body })).status ]).toEqual([ route, 403 ]);
      expect([ route, (await api(`${server.baseUrl}${route}`, undefined, { method, body })).status ]).toEqual([ route, 401 ]);
    }
    // The operator routes of the command line take this run's operator secret only.
    expect((await api(`${server.baseUrl}operator/reports`, olive)).status).toBe(404);
    expect((await cli({ dataDir: `${server.dataDir}-elsewhere` }, [ 'reports', 'list' ])).code).toBe(1);

    const cookie = await pageCookie(server, 'sam');
    expect((await page(`${server.baseUrl}auth/operator/reports`, cookie)).status).toBe(403);
    expect((await page(`${server.baseUrl}auth/operator/accounts`, cookie, { do: 'suspend', account: 'dan' })).status).toBe(403);
    expect((await page(`${server.baseUrl}auth/operator/accounts`, '')).status).toBe(303);
    // Nothing changed: dan is as he was.
    expect((await api(`${server.baseUrl}api/v1/admin/accounts/dan`, olive)).body).toMatchObject({ suspended: false, silenced: false });
  });

  it('lists the report for the operator, who resolves and reopens it', async() => {
    const listed = await api(`${server.baseUrl}api/v1/admin/reports`, olive);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([ expect.objectContaining({ id: reportId, action_taken: false, category: 'spam',
      account: expect.objectContaining({ username: 'rita' }), target_account: expect.objectContaining({ username: 'dan' }),
      statuses: [ expect.objectContaining({ id: danStatusId }) ] }) ]);
    expect((await api(`${server.baseUrl}api/v1/admin/reports/${reportId}/resolve`, olive, { method: 'POST' })).body)
      .toMatchObject({ id: reportId, action_taken: true });
    expect((await api(`${server.baseUrl}api/v1/admin/reports`, olive)).body).toEqual([]);
    expect((await api(`${server.baseUrl}api/v1/admin/reports?resolved=true`, olive)).body).toHaveLength(1);
    const cli1 = await cli(server, [ 'reports', 'reopen', reportId ]);
    expect(cli1).toMatchObject({ code: 0, stdout: `report ${reportId}: open\n` });
    const listedByCli = await cli(server, [ 'reports', 'list' ]);
    expect(listedByCli.stdout).toContain(`${reportId}\t`);
    expect(listedByCli.stdout).toContain(dan.webId);
  });

  it('suspends from the report: tokens dead at once, login refused, everything of the account gone (410), then restored', async() => {
    expect((await api(`${server.baseUrl}api/v1/accounts/verify_credentials`, dan)).status).toBe(200);
    expect((await publicTimeline(sam)).some((status) => status.uri === danNote)).toBe(true);
    const stream = await RawStream.open(server.baseUrl, '?stream=user', dan.token);
    await stream.ready();
    const webhook = (await fetch(`${server.baseUrl}webhooks`, { method: 'POST', headers: { 'content-type': 'application/json',
      authorization: `Bearer ${dan.token}` }, body: JSON.stringify({ action: 'post-to-outbox' }) })).headers.get('location')!;
    const callWebhook = async(): Promise<{ status: number; body: Json }> => {
      const answer = await fetch(webhook, { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'Note', content: 'from the webhook' }) });
      return { status: answer.status, body: await answer.json() as Json };
    };

    const acted = await api(`${server.baseUrl}api/v1/admin/accounts/dan/action`, olive, { method: 'POST',
      body: { type: 'suspend', report_id: reportId } });
    expect(acted).toEqual({ status: 200, body: {}});
    expect((await api(`${server.baseUrl}api/v1/admin/reports/${reportId}`, olive)).body)
      .toMatchObject({ action_taken: true, actions: [ 'suspend' ], action_taken_by_account: expect.objectContaining({ username: 'olive' }) });

    const refused = await api(`${server.baseUrl}api/v1/accounts/verify_credentials`, dan);
    expect(refused).toEqual({ status: 401, body: { error: 'account_suspended', message: expect.any(String) } });
    expect((await api(`${dan.webId}/outbox`, dan, { method: 'POST', body: { type: 'Note', content: 'still here?' } })).status).toBe(401);
    expect(await login(server, 'dan')).toEqual({ status: 403, body: { error: 'account_suspended', message: expect.any(String) } });
    // The account's webhooks act for it no more.
    expect(await callWebhook()).toEqual({ status: 403, body: { error: 'account_suspended', message: expect.any(String) } });
    // A new stream is refused; the open one is closed at its next check (up to 10 s: waited for below,
    // while the other checks run, and before the account is restored).
    expect(await (await RawStream.open(server.baseUrl, '?stream=user', dan.token)).waitForClose()).toBe(1008);
    for (const url of [ dan.webId, `${dan.webId}/outbox`, `${dan.webId}/followers`, danNote ]) {
      expect([ url, (await fetch(url, { headers: { accept: 'application/activity+json' } })).status ]).toEqual([ url, 410 ]);
    }
    expect((await publicTimeline(sam)).some((status) => status.uri === danNote)).toBe(false);
    expect((await api(`${server.baseUrl}api/v1/admin/accounts?status=suspended`, olive)).body.map((entry: Json) => entry.username))
      .toEqual([ 'dan' ]);
    // Others are untouched.
    expect((await api(`${server.baseUrl}api/v1/accounts/verify_credentials`, sam)).status).toBe(200);
    expect(await stream.waitForClose()).toBe(1008);

    const restored = await api(`${server.baseUrl}api/v1/admin/accounts/dan/unsuspend`, olive, { method: 'POST' });
    expect(restored.body).toMatchObject({ username: 'dan', suspended: false });
    expect((await api(`${server.baseUrl}api/v1/accounts/verify_credentials`, dan)).status).toBe(200);
    expect((await login(server, 'dan')).status).toBe(200);
    expect((await callWebhook()).status).toBe(202);
    expect((await fetch(danNote, { headers: { accept: 'application/activity+json' } })).status).toBe(200);
    expect((await publicTimeline(sam)).some((status) => status.uri === danNote)).toBe(true);

    const audit = await cli(server, [ 'audit-log' ]);
    expect(audit.stdout).toMatch(/\tolive\taccount\.suspend\t.*\/actors\/dan\t\{"report":/u);
    expect(audit.stdout).toMatch(/\tolive\taccount\.unsuspend\t/u);
    expect(audit.stdout).toMatch(/\toperator\treport\.reopen\t/u);
  });

  it('silences (public timelines only) and marks sensitive, through the command line', async() => {
    expect(await cli(server, [ 'accounts', 'silence', 'dan' ])).toMatchObject({ code: 0, stdout: `${dan.webId}: silenced\n` });
    expect((await publicTimeline(sam)).some((status) => status.uri === danNote)).toBe(false);
    const home = await api(`${server.baseUrl}api/v1/timelines/home?limit=40`, rita);
    expect(home.body.some((status: Json) => status.uri === danNote)).toBe(true);
    expect((await fetch(dan.webId, { headers: { accept: 'application/activity+json' } })).status).toBe(200);
    expect(await cli(server, [ 'accounts', 'unsilence', 'dan' ])).toMatchObject({ code: 0, stdout: `${dan.webId}: active\n` });

    expect((await cli(server, [ 'accounts', 'sensitive', 'dan' ])).code).toBe(0);
    expect((await publicTimeline(sam)).find((status) => status.uri === danNote)).toMatchObject({ sensitive: true });
    expect((await cli(server, [ 'accounts', 'unsensitive', 'dan' ])).code).toBe(0);
    expect((await publicTimeline(sam)).find((status) => status.uri === danNote)).toMatchObject({ sensitive: false });
    expect((await cli(server, [ 'accounts', 'suspend', 'nobody' ])).code).toBe(1);
  });

  it('works the queue from the operator pages, each form checked for its session\'s key', async() => {
    const cookie = await pageCookie(server, 'olive');
    // The suspension resolved the report: only the list of every report shows it.
    expect((await page(`${server.baseUrl}auth/operator/reports`, cookie)).text).toContain('No reports.');
    const reports = await page(`${server.baseUrl}auth/operator/reports?all=1`, cookie);
    expect(reports.status).toBe(200);
    expect(reports.text).toContain(`report ${reportId}`);
    const csrf = /name="csrf" value="([^"]+)"/u.exec(reports.text)![1];
    const reopened = await page(`${server.baseUrl}auth/operator/reports`, cookie, { do: 'reopen', report: reportId, csrf });
    expect(reopened.text).toContain(`Report ${reportId} reopened.`);
    expect(reopened.text).toContain(`report ${reportId}`);
    expect((await page(`${server.baseUrl}auth/operator/reports`, cookie, { do: 'resolve', report: reportId })).status).toBe(403);
    expect((await page(`${server.baseUrl}auth/operator/reports`, cookie, { do: 'resolve', report: reportId, csrf: 'x'.repeat(43) })).status)
      .toBe(403);
    const resolved = await page(`${server.baseUrl}auth/operator/reports`, cookie, { do: 'resolve', report: reportId, csrf });
    expect(resolved.status).toBe(200);
    expect(resolved.text).toContain(`Report ${reportId} resolved.`);
    const silenced = await page(`${server.baseUrl}auth/operator/accounts`, cookie, { do: 'silence', account: 'dan', csrf });
    expect(silenced.status).toBe(200);
    expect(silenced.text).toMatch(/\/actors\/dan<\/a><\/td>\s*<td class="state">silenced<\/td>/u);
    expect((await api(`${server.baseUrl}api/v1/admin/accounts/dan`, olive)).body).toMatchObject({ silenced: true });
    expect((await page(`${server.baseUrl}auth/operator/accounts`, cookie, { do: 'unsilence', account: 'dan', csrf })).status).toBe(200);
  });

  it('keeps every report across a restart', async() => {
    const { dataDir, port } = server;
    await server.stop();
    server = await startFedpod({ config: 'activitypub', dataDir, port });
    const all = await api(`${server.baseUrl}api/v1/admin/reports?resolved=true`, olive);
    expect(all.body.map((report: Json) => report.id)).toEqual([ reportId ]);
  });
});
