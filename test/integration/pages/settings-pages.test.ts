/**
 * The account's settings pages and the operator's pages over HTTP, as a browser without JavaScript
 * uses them: plain forms, 303 back to the page, the page again with the reason and a 4xx when a form
 * is refused. Every form is refused (403, nothing changed) without the session's CSRF token, and
 * every operator page and action is refused to a user without the operator role.
 */
import sharp from 'sharp';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { fedpodCli } from '../../support/fedpod-cli';
import { appToken } from '../../support/mastodon-oauth';

const HTML = { accept: 'text/html' };
const FORM = { ...HTML, 'content-type': 'application/x-www-form-urlencoded' };
const PASSWORD = 'correct horse';

const csrfOf = (html: string): string => /name="csrf" value="([^"]+)"/u.exec(html)![1];

describe('settings and operator pages', () => {
  let server: FedpodServer;
  let base: string;

  /** The session cookie of a user: their token, as the login page sets it. */
  const sessions = new Map<string, string>();

  const login = async(username: string, password = PASSWORD): Promise<Response> => fetch(`${base}auth/login`, { method: 'POST',
    headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });

  const logIn = async(username: string): Promise<void> => {
    const answer = await login(username);
    expect(answer.status).toBe(200);
    sessions.set(username, (await answer.json() as { token: string }).token);
  };

  const cookie = (username: string): Record<string, string> => ({ cookie: `fedpod_session=${sessions.get(username)}` });

  const page = async(username: string | undefined, pathName: string): Promise<{ status: number; html: string; response: Response }> => {
    const response = await fetch(`${base}${pathName}`, { headers: { ...HTML, ...username ? cookie(username) : {} }, redirect: 'manual' });
    return { status: response.status, html: await response.text(), response };
  };

  /** Posts a form to `pathName` as `username`, with their session's CSRF token (any page of theirs has it) unless `csrf` is given. */
  const post = async(username: string, pathName: string, fields: Record<string, string>, csrf?: string): Promise<Response> => {
    const token = csrf ?? csrfOf((await page(username, 'auth/settings/profile')).html);
    return fetch(`${base}${pathName}`, { method: 'POST', headers: { ...FORM, ...cookie(username) }, redirect: 'manual',
      body: new URLSearchParams({ ...fields, csrf: token }).toString() });
  };

  const actor = async(username: string): Promise<Record<string, unknown>> =>
    await (await fetch(`${base}actors/${username}`, { headers: { accept: 'application/activity+json' } })).json() as Record<string, unknown>;

  beforeAll(async() => {
    // Approval: the registration queue has someone in it; the test's own users are approved first.
    server = await startFedpod({ config: 'activitypub', extraArgs: [ '--registrations', 'approval' ]});
    base = server.baseUrl;
    for (const username of [ 'alice', 'bob', 'carol', 'mallory', 'trudy' ]) {
      const answer = await fetch(`${base}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, email: `${username}@example.com`, password: PASSWORD, reason: `I am ${username}` }) });
      expect(answer.status).toBe(202);
    }
    for (const username of [ 'alice', 'bob', 'carol' ]) {
      await fedpodCli(server, [ 'accounts', 'approve', username ]);
      await logIn(username);
    }
    await fedpodCli(server, [ 'accounts', 'role', 'alice', 'operator' ]);
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('sends a reader without a session to the login page, and changes nothing for them', async() => {
    for (const pathName of [ 'auth/settings/profile', 'auth/settings/password', 'auth/settings/sessions', 'auth/operator',
      'auth/operator/domain-blocks', 'auth/operator/registrations', 'auth/operator/invites', 'auth/operator/audit-log' ]) {
      const answer = await page(undefined, pathName);
      expect(answer.status).toBe(303);
      expect(answer.response.headers.get('location')).toBe(`${base}auth/login`);
    }
    const forged = await fetch(`${base}auth/settings/profile`, { method: 'POST', headers: FORM, redirect: 'manual',
      body: new URLSearchParams({ display_name: 'Nobody', locked: 'false' }).toString() });
    expect(forged.status).toBe(303);
    expect((await actor('alice')).name).toBe('alice');
  });

  it('serves the pages without any script, under a policy that forbids inline script', async() => {
    const { status, html, response } = await page('alice', 'auth/settings/profile');
    expect(status).toBe(200);
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).toContain('script-src \'none\'');
    expect(policy).toContain('frame-ancestors \'none\'');
    expect(policy).toContain('form-action \'self\'');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(html).not.toMatch(/<script/iu);
    // Every field has its label.
    for (const id of [ 'display_name', 'note', 'avatar', 'header', 'field-0-name', 'field-3-value' ]) {
      expect(html).toContain(`for="${id}"`);
    }
  });

  describe('profile', () => {
    it('saves name, bio, fields, flags and an avatar as one Update of the actor, read by others', async() => {
      const csrf = csrfOf((await page('bob', 'auth/settings/profile')).html);
      const avatar = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3060c0' } }).png().toBuffer();
      const form = new FormData();
      form.set('csrf', csrf);
      form.set('display_name', 'Bob B.');
      form.set('note', 'Likes <b>bold</b> claims.\n\nSecond paragraph.');
      form.set('fields_attributes[0][name]', 'Site');
      form.set('fields_attributes[0][value]', 'https://bob.example');
      form.set('fields_attributes[1][name]', '');
      form.set('fields_attributes[1][value]', '');
      form.append('locked', 'false');
      form.append('locked', 'true');
      form.append('discoverable', 'false');
      form.set('avatar', new Blob([ new Uint8Array(avatar) ], { type: 'image/png' }), 'me.png');
      // A file input left empty: no file (the header stays as it was).
      form.set('header', new Blob([]), '');
      const saved = await fetch(`${base}auth/settings/profile`, { method: 'POST', headers: { ...HTML, ...cookie('bob') }, body: form, redirect: 'manual' });
      expect({ status: saved.status, body: saved.status === 303 ? '' : await saved.text() }).toEqual({ status: 303, body: '' });
      expect(saved.headers.get('location')).toBe(`${base}auth/settings/profile?done=saved`);

      const bob = await actor('bob');
      expect(bob.name).toBe('Bob B.');
      expect(bob.summary).toBe('<p>Likes &lt;b&gt;bold&lt;/b&gt; claims.</p><p>Second paragraph.</p>');
      expect(bob.manuallyApprovesFollowers).toBe(true);
      expect([ bob.attachment ].flat()).toEqual([ { type: 'PropertyValue', name: 'Site', value: 'https://bob.example' } ]);
      const icon = bob.icon as { url: string; mediaType: string };
      expect(icon.mediaType).toMatch(/^image\//u);
      expect(bob.image).toBeUndefined();
      // The picture is public: carol (anyone) reads it.
      expect((await fetch(icon.url)).status).toBe(200);
      // The same Update the API makes, in the outbox that followers are delivered from.
      const outbox = await (await fetch(`${base}actors/bob/outbox?page=true`, { headers: { accept: 'application/activity+json', ...{
        authorization: `Bearer ${sessions.get('bob')}` } } })).json() as { orderedItems: { type: string }[] };
      expect(outbox.orderedItems.map((item) => item.type)).toContain('Update');

      // The page shows the saved values (the bio as the text it was typed as) and the notice.
      const again = await page('bob', 'auth/settings/profile?done=saved');
      expect(again.html).toContain('role="status">Your profile is saved.');
      expect(again.html).toContain('value="Bob B."');
      expect(again.html).toContain('Likes &lt;b&gt;bold&lt;/b&gt; claims.\n\nSecond paragraph.</textarea>');
      expect(again.html).toContain(`src="${icon.url}"`);
      // Carol's page is her own.
      expect((await page('carol', 'auth/settings/profile')).html).not.toContain('Bob B.');
    });

    it('refuses a form without the session\'s CSRF token and changes nothing', async() => {
      const before = await actor('carol');
      for (const csrf of [ 'wrong', csrfOf((await page('bob', 'auth/settings/profile')).html) ]) {
        const refused = await post('carol', 'auth/settings/profile', { display_name: 'Forged', locked: 'false', discoverable: 'false' }, csrf);
        expect(refused.status).toBe(403);
        expect(await refused.text()).toContain('invalid_form');
      }
      const form = new FormData();
      form.set('display_name', 'Forged');
      form.set('locked', 'false');
      form.set('avatar', new Blob([ new Uint8Array(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).png().toBuffer()) ],
        { type: 'image/png' }), 'x.png');
      const noToken = await fetch(`${base}auth/settings/profile`, { method: 'POST', headers: { ...HTML, ...cookie('carol') }, body: form, redirect: 'manual' });
      expect(noToken.status).toBe(403);
      expect(await actor('carol')).toEqual(before);
    });

    it('shows the form again with the reason and a 422 for a value Mastodon refuses', async() => {
      const refused = await post('carol', 'auth/settings/profile', { display_name: 'x'.repeat(31), locked: 'false', discoverable: 'false' });
      expect(refused.status).toBe(422);
      const html = await refused.text();
      expect(html).toContain('role="alert"');
      expect(html).toContain('Display name is too long');
      expect(html).toContain(`value="${'x'.repeat(31)}"`);
      expect((await actor('carol')).name).toBe('carol');
    });
  });

  describe('password', () => {
    it('refuses a forged form, a wrong current password and a mismatch, each changing nothing', async() => {
      const forged = await post('carol', 'auth/settings/password', { currentPassword: PASSWORD, newPassword: 'new horse battery',
        confirmPassword: 'new horse battery' }, 'wrong');
      expect(forged.status).toBe(403);
      const wrong = await post('carol', 'auth/settings/password', { currentPassword: 'not it', newPassword: 'new horse battery',
        confirmPassword: 'new horse battery' });
      expect(wrong.status).toBe(403);
      expect(await wrong.text()).toContain('The current password is wrong.');
      const mismatch = await post('carol', 'auth/settings/password', { currentPassword: PASSWORD, newPassword: 'new horse battery',
        confirmPassword: 'new horse batery' });
      expect(mismatch.status).toBe(400);
      expect(await mismatch.text()).toContain('role="alert"');
      expect((await login('carol')).status).toBe(200);
      expect((await page('carol', 'auth/settings/password')).status).toBe(200);
    });

    it('changes it, revokes every other session and token, and keeps this session logged in', async() => {
      const other = await login('carol');
      const otherToken = (await other.json() as { token: string }).token;
      const app = await appToken(base, 'carol', PASSWORD, 'read');
      expect((await fetch(`${base}api/v1/accounts/verify_credentials`, { headers: { authorization: `Bearer ${app}` } })).status).toBe(200);

      const changed = await post('carol', 'auth/settings/password', { currentPassword: PASSWORD, newPassword: 'new horse battery',
        confirmPassword: 'new horse battery' });
      expect(changed.status).toBe(303);
      expect(changed.headers.get('location')).toBe(`${base}auth/settings/password?done=changed`);
      const fresh = /fedpod_session=([^;]+)/u.exec(changed.headers.getSetCookie().join('\n'))![1];
      expect(fresh).not.toBe(sessions.get('carol'));

      // The old session cookie, the other login and the app's token are all refused now.
      expect((await page('carol', 'auth/settings/password')).status).toBe(303);
      expect((await fetch(`${base}auth/invites`, { headers: { authorization: `Bearer ${otherToken}` } })).status).toBe(401);
      expect((await fetch(`${base}api/v1/accounts/verify_credentials`, { headers: { authorization: `Bearer ${app}` } })).status).toBe(401);
      expect((await login('carol')).status).toBe(401);
      expect((await login('carol', 'new horse battery')).status).toBe(200);
      sessions.set('carol', fresh);
      const after = await page('carol', 'auth/settings/password?done=changed');
      expect(after.status).toBe(200);
      expect(after.html).toContain('Your password is changed.');
    });
  });

  describe('apps and sessions', () => {
    it('lists the user\'s apps and client credentials only, and revokes each with a button', async() => {
      const app = await appToken(base, 'bob', PASSWORD, 'read');
      const client = await (await fetch(`${base}auth/clients`, { method: 'POST', headers: { authorization: `Bearer ${sessions.get('bob')}`,
        'content-type': 'application/json' }, body: JSON.stringify({ name: 'backup-bot' }) })).json() as { id: string };
      const listed = await page('bob', 'auth/settings/sessions');
      expect(listed.html).toContain('app of bob');
      expect(listed.html).toContain(client.id);
      // Nobody else sees them, nor can revoke them.
      const alices = await page('alice', 'auth/settings/sessions');
      expect(alices.html).not.toContain('app of bob');
      expect(alices.html).not.toContain(client.id);
      const clientId = /name="client" value="([^"]+)"/u.exec(listed.html)![1];
      expect((await post('alice', 'auth/settings/sessions', { do: 'revoke-app', client: clientId })).status).toBe(404);
      expect((await post('alice', 'auth/settings/sessions', { do: 'revoke-client', client: client.id })).status).toBe(404);
      // Without bob's CSRF token: refused, nothing revoked.
      expect((await post('bob', 'auth/settings/sessions', { do: 'revoke-app', client: clientId }, csrfOf((await page('alice', 'auth/settings/profile')).html))).status).toBe(403);
      expect((await fetch(`${base}api/v1/accounts/verify_credentials`, { headers: { authorization: `Bearer ${app}` } })).status).toBe(200);

      const revoked = await post('bob', 'auth/settings/sessions', { do: 'revoke-app', client: clientId });
      expect(revoked.status).toBe(303);
      expect((await fetch(`${base}api/v1/accounts/verify_credentials`, { headers: { authorization: `Bearer ${app}` } })).status).toBe(401);
      expect((await post('bob', 'auth/settings/sessions', { do: 'revoke-client', client: client.id })).status).toBe(303);
      const after = await page('bob', 'auth/settings/sessions?done=client-revoked');
      expect(after.html).not.toContain('app of bob');
      expect(after.html).not.toContain(client.id);
      expect(after.html).toContain('The client credentials are revoked');
    });
  });

  describe('operator pages', () => {
    const operatorPages = [ 'auth/operator', 'auth/operator/domain-blocks', 'auth/operator/registrations', 'auth/operator/invites',
      'auth/operator/audit-log' ];

    it('links them for an operator only, and refuses every page and action to anyone else', async() => {
      expect((await page('alice', 'auth/settings/profile')).html).toContain(`href="${base}auth/operator"`);
      expect((await page('bob', 'auth/settings/profile')).html).not.toContain('auth/operator');
      for (const pathName of operatorPages) {
        const answer = await page('bob', pathName);
        expect(answer.status).toBe(403);
        expect(answer.html).not.toContain('mallory');
      }
      // Bob's own valid CSRF token does not make him an operator.
      const csrf = csrfOf((await page('bob', 'auth/settings/profile')).html);
      const actions: [string, Record<string, string>][] = [
        [ 'auth/operator/domain-blocks', { do: 'add', domain: 'bob-blocked.example', severity: 'suspend' } ],
        [ 'auth/operator/registrations', { do: 'approve', user: 'mallory' } ],
        [ 'auth/operator/registrations', { do: 'reject', user: 'trudy' } ],
        [ 'auth/operator/invites', { do: 'create', maxUses: '3', expiresIn: '0' } ],
      ];
      for (const [ pathName, fields ] of actions) {
        expect((await post('bob', pathName, fields, csrf)).status).toBe(403);
      }
      expect((await post('bob', 'auth/operator/domain-blocks', { do: 'remove', domain: 'x.example' }, csrf)).status).toBe(403);
      const blocks = await page('alice', 'auth/operator/domain-blocks');
      expect(blocks.html).not.toContain('bob-blocked.example');
      const queue = await page('alice', 'auth/operator/registrations');
      expect(queue.html).toContain('@mallory');
      expect(queue.html).toContain('@trudy');
      expect((await page('alice', 'auth/operator/invites')).html).toContain('No invite codes.');
      expect((await fetch(`${base}auth/operator/domain-blocks?format=csv`, { headers: cookie('bob'), redirect: 'manual' })).status).toBe(403);
    });

    it('lists the sections on the operator index', async() => {
      const index = await page('alice', 'auth/operator');
      expect(index.status).toBe(200);
      for (const pathName of operatorPages.slice(1)) {
        expect(index.html).toContain(`href="${base}${pathName}"`);
      }
    });

    it('adds, exports, imports and removes domain blocks, each in the audit log under the operator\'s name', async() => {
      const forged = await post('alice', 'auth/operator/domain-blocks', { do: 'add', domain: 'forged.example', severity: 'suspend' }, 'wrong');
      expect(forged.status).toBe(403);
      const added = await post('alice', 'auth/operator/domain-blocks', { do: 'add', domain: 'spam.example', severity: 'silence',
        reject_media: 'true', public_comment: 'Spam', private_comment: 'reports 1-3' });
      expect(added.status).toBe(303);
      let listed = await page('alice', 'auth/operator/domain-blocks?done=added');
      expect(listed.html).toContain('spam.example');
      expect(listed.html).toContain('reports 1-3');
      expect(listed.html).not.toContain('forged.example');
      // A bad domain: the page again with the reason, nothing added.
      const bad = await post('alice', 'auth/operator/domain-blocks', { do: 'add', domain: 'not a domain', severity: 'suspend' });
      expect(bad.status).toBe(400);
      expect(await bad.text()).toContain('Not a domain');

      const csv = await fetch(`${base}auth/operator/domain-blocks?format=csv`, { headers: cookie('alice') });
      expect(csv.headers.get('content-type')).toContain('text/csv');
      const exported = await csv.text();
      expect(exported).toContain('spam.example,silence,true,false,Spam,false');
      expect(exported).not.toContain('reports 1-3');

      const upload = new FormData();
      upload.set('csrf', csrfOf(listed.html));
      upload.set('do', 'import');
      upload.set('csv', new Blob([ '#domain,#severity\nloud.example,silence\nbad.example,suspend\n' ], { type: 'text/csv' }), 'blocks.csv');
      const imported = await fetch(`${base}auth/operator/domain-blocks`, { method: 'POST', headers: { ...HTML, ...cookie('alice') }, body: upload,
        redirect: 'manual' });
      expect(imported.status).toBe(303);
      listed = await page('alice', 'auth/operator/domain-blocks');
      expect(listed.html).toContain('loud.example');
      expect(listed.html).toContain('bad.example');

      expect((await post('alice', 'auth/operator/domain-blocks', { do: 'remove', domain: 'loud.example' })).status).toBe(303);
      expect((await page('alice', 'auth/operator/domain-blocks')).html).not.toContain('loud.example');
      // The public list reads the same blocks.
      const published = await (await fetch(`${base}api/v1/instance/domain_blocks`)).json() as { domain: string }[];
      expect(published.map((block) => block.domain).sort()).toEqual([ 'bad.example', 'spam.example' ]);

      const audit = await page('alice', 'auth/operator/audit-log');
      expect(audit.status).toBe(200);
      expect(audit.html).toMatch(/<td>alice<\/td><td>domain_block\.create<\/td>\s*<td class="target">spam\.example/u);
      expect(audit.html).toMatch(/<td>alice<\/td><td>domain_block\.destroy<\/td>\s*<td class="target">loud\.example/u);
    });

    it('approves and rejects pending accounts', async() => {
      const forged = await post('alice', 'auth/operator/registrations', { do: 'approve', user: 'mallory' }, 'wrong');
      expect(forged.status).toBe(403);
      expect((await login('mallory')).status).toBe(403);
      const approved = await post('alice', 'auth/operator/registrations', { do: 'approve', user: 'mallory' });
      expect(approved.status).toBe(303);
      expect((await login('mallory')).status).toBe(200);
      expect((await post('alice', 'auth/operator/registrations', { do: 'reject', user: 'trudy' })).status).toBe(303);
      expect((await login('trudy')).status).toBe(401);
      const queue = await page('alice', 'auth/operator/registrations?done=rejected');
      expect(queue.html).toContain('Nobody is waiting.');
      // Approving someone who does not wait: the page with the reason.
      const again = await post('alice', 'auth/operator/registrations', { do: 'approve', user: 'mallory' });
      expect(again.status).toBe(404);
    });

    it('makes invite codes with uses and expiry, lists and revokes them', async() => {
      expect((await post('alice', 'auth/operator/invites', { do: 'create', maxUses: '3', expiresIn: '86400' }, 'wrong')).status).toBe(403);
      expect((await post('alice', 'auth/operator/invites', { do: 'create', maxUses: 'many', expiresIn: '86400' })).status).toBe(400);
      expect((await post('alice', 'auth/operator/invites', { do: 'create', maxUses: '3', expiresIn: '86400' })).status).toBe(303);
      const listed = await page('alice', 'auth/operator/invites?done=created');
      const code = /name="code" value="([^"]+)"/u.exec(listed.html)![1];
      expect(listed.html).toContain(`auth/signup?invite=${code}`);
      expect(listed.html).toContain('0 of 3');
      expect((await post('alice', 'auth/operator/invites', { do: 'revoke', code }, 'wrong')).status).toBe(403);
      expect((await page('alice', 'auth/operator/invites')).html).toContain(code);
      expect((await post('alice', 'auth/operator/invites', { do: 'revoke', code })).status).toBe(303);
      expect((await page('alice', 'auth/operator/invites')).html).not.toContain(code);
    });
  });
});
