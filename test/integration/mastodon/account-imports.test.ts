/**
 * Importing Mastodon's CSV exports, on two real Fedpod instances (A and B, on loopback with
 * --allow-private-network): alice's follows exported on A are imported by zed on A and reach B as
 * real Follows; merge adds, overwrite replaces; rows that fail are reported, the others imported;
 * only the user reads their import.
 */
import { eventually } from '../../support/eventually';
import { startAll, startFedpod, type FedpodServer } from '../../support/fedpod';
import { pageItemIds, postToOutbox, signup, type Session } from '../../support/local-actors';

interface ImportStatus {
  id: string;
  kind: string;
  mode: string;
  state: string;
  total: number;
  done: number;
  imported: number;
  removed: number;
  failed: { line: number; value: string; error: string }[];
}

describe('imports of Mastodon\'s CSV files', () => {
  let a: FedpodServer;
  let b: FedpodServer;
  let hostB: string;
  const users: Record<string, Session> = {};

  function auth(session?: Session): Record<string, string> {
    return session ? { authorization: `Bearer ${session.token}` } : {};
  }

  async function startImport(session: Session | undefined, kind: string, csv: string, mode = 'merge'): Promise<Response> {
    return fetch(`${a.baseUrl}auth/import/${kind}?mode=${mode}`, { method: 'POST',
      headers: { ...auth(session), 'content-type': 'text/csv' }, body: csv });
  }

  async function finished(session: Session, id: string): Promise<ImportStatus> {
    return eventually(async() => {
      const status = await (await fetch(`${a.baseUrl}auth/import/${id}`, { headers: auth(session) })).json() as ImportStatus;
      return status.state === 'finished' ? status : undefined;
    }, 60_000);
  }

  async function imported(session: Session, kind: string, csv: string, mode = 'merge'): Promise<ImportStatus> {
    const response = await startImport(session, kind, csv, mode);
    expect(response.status).toBe(202);
    const { id } = await response.json() as ImportStatus;
    expect(response.headers.get('location')).toBe(`${a.baseUrl}auth/import/${id}`);
    return finished(session, id);
  }

  async function exported(session: Session, file: string): Promise<string> {
    const response = await fetch(`${a.baseUrl}auth/export/${file}`, { headers: auth(session) });
    expect(response.status).toBe(200);
    return response.text();
  }

  beforeAll(async() => {
    await startAll([ startFedpod({ config: 'activitypub', allowPrivateNetwork: true }),
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true }) ], (servers) => {
      [ a, b ] = servers as FedpodServer[];
    });
    hostB = new URL(b.baseUrl).host;
    for (const name of [ 'alice', 'zed' ]) {
      users[name] = await signup(a.baseUrl, name);
    }
    for (const name of [ 'bob', 'carol' ]) {
      users[name] = await signup(b.baseUrl, name);
    }
    for (const name of [ 'bob', 'carol' ]) {
      expect((await postToOutbox(users.alice, { type: 'Follow', object: users[name].webId, to: [ users[name].webId ]})).status).toBe(201);
    }
  }, 240_000);

  afterAll(async() => {
    await Promise.allSettled([ a?.stop(), b?.stop() ]);
  });

  it('imports one account\'s exported follows into another; the Follows reach the other server', async() => {
    // B accepts alice's Follows in the background: her export names both once the Accepts are in.
    const csv = await eventually(async() => {
      const text = await exported(users.alice, 'following_accounts.csv');
      return text.includes(`bob@${hostB}`) && text.includes(`carol@${hostB}`) ? text : undefined;
    }, 60_000);
    const status = await imported(users.zed, 'following', csv);
    expect(status).toMatchObject({ kind: 'following', mode: 'merge', total: 2, done: 2, imported: 2, failed: []});
    for (const name of [ 'bob', 'carol' ]) {
      await eventually(async() => (await pageItemIds(`${users[name].webId}/followers`)).includes(users.zed.webId), 60_000);
    }
    // Zed's following takes each when B's Accept comes back, after B listed him among the followers.
    await eventually(async() => {
      const text = await exported(users.zed, 'following_accounts.csv');
      return text.includes(`bob@${hostB}`) && text.includes(`carol@${hostB}`);
    }, 60_000);
  });

  it('reports the rows that fail with their lines and imports the others', async() => {
    const csv = `Account address,Hide notifications\nnobody@${hostB},true\n"not, a handle",false\nbob@${hostB},false\n`;
    const status = await imported(users.zed, 'mutes', csv);
    expect(status).toMatchObject({ total: 3, imported: 1 });
    expect(status.failed.map(({ line, value }) => ({ line, value }))).toEqual([
      { line: 2, value: `nobody@${hostB}` }, { line: 3, value: 'not, a handle' } ]);
    expect(await exported(users.zed, 'muted_accounts.csv')).toBe(`Account address,Hide notifications\nbob@${hostB},false\n`);
  });

  it('merges into what the user has, or overwrites it', async() => {
    expect((await imported(users.zed, 'domain_blocks', 'one.example\ntwo.example\n')).imported).toBe(2);
    expect((await imported(users.zed, 'domain_blocks', 'three.example\n')).imported).toBe(1);
    expect((await exported(users.zed, 'blocked_domains.csv')).split('\n').sort()).toEqual(
      [ '', 'one.example', 'three.example', 'two.example' ]);
    const overwritten = await imported(users.zed, 'domain_blocks', 'three.example\nfour.example\n', 'overwrite');
    expect(overwritten).toMatchObject({ mode: 'overwrite', imported: 2, removed: 2 });
    expect((await exported(users.zed, 'blocked_domains.csv')).split('\n').sort()).toEqual([ '', 'four.example', 'three.example' ]);
  });

  it('takes the file as the data field of a multipart form', async() => {
    const form = new FormData();
    form.set('mode', 'merge');
    form.set('data', new Blob([ 'five.example\n' ], { type: 'text/csv' }), 'blocked_domains.csv');
    const response = await fetch(`${a.baseUrl}auth/import/domain_blocks`, { method: 'POST', headers: auth(users.zed), body: form });
    expect(response.status).toBe(202);
    const status = await finished(users.zed, (await response.json() as ImportStatus).id);
    expect(status).toMatchObject({ total: 1, imported: 1 });
    expect(await exported(users.zed, 'blocked_domains.csv')).toContain('five.example');
  });

  it('refuses strangers, other users\' imports, unknown kinds and modes', async() => {
    expect((await startImport(undefined, 'following', 'x@y\n')).status).toBe(401);
    const response = await startImport(users.zed, 'domain_blocks', 'six.example\n');
    const { id } = await response.json() as ImportStatus;
    await finished(users.zed, id);
    const other = await fetch(`${a.baseUrl}auth/import/${id}`, { headers: auth(users.alice) });
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: 'not_found' });
    expect((await fetch(`${a.baseUrl}auth/import/${id}`)).status).toBe(401);
    expect((await startImport(users.zed, 'passwords', 'x\n')).status).toBe(404);
    const mode = await startImport(users.zed, 'following', 'x@y\n', 'replace');
    expect(mode.status).toBe(400);
    expect(await mode.json()).toMatchObject({ error: 'invalid_mode' });
  });

  it('has a settings page with the exports and an import form, which checks the form\'s CSRF token', async() => {
    const login = await fetch(`${a.baseUrl}auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'zed', password: 'correct horse' }) });
    expect(login.status).toBe(200);
    const cookie = { cookie: `fedpod_session=${(await login.json() as { token: string }).token}` };
    const page = await fetch(`${a.baseUrl}auth/settings/export`, { headers: { ...cookie, accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`href="${a.baseUrl}auth/export/blocked_domains.csv"`);
    expect(html).toContain(`href="${a.baseUrl}auth/export/archive"`);
    const csrf = /name="csrf" value="([^"]+)"/u.exec(html)![1];
    const form = (token: string): FormData => {
      const data = new FormData();
      data.set('csrf', token);
      data.set('kind', 'domain_blocks');
      data.set('mode', 'merge');
      data.set('data', new Blob([ 'from-the-page.example\n' ], { type: 'text/csv' }), 'blocked_domains.csv');
      return data;
    };
    const forged = await fetch(`${a.baseUrl}auth/settings/export`, { method: 'POST', headers: cookie, body: form('forged'), redirect: 'manual' });
    expect(forged.status).toBe(403);
    const sent = await fetch(`${a.baseUrl}auth/settings/export`, { method: 'POST', headers: cookie, body: form(csrf), redirect: 'manual' });
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(`${a.baseUrl}auth/settings/export?done=queued`);
    await eventually(async() => (await exported(users.zed, 'blocked_domains.csv')).includes('from-the-page.example'), 60_000);
    expect(await exported(users.zed, 'blocked_domains.csv')).not.toContain('forged');
  });
});
