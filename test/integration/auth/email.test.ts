/**
 * Email confirmation over SMTP (`--smtp-url`), against a real SMTP server started here (smtp-server):
 * a signup's account cannot log in until the link mailed to it is opened; the link works once; a
 * wrong or expired link is refused; a mail that cannot be sent leaves no account behind.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { SMTPServer } from 'smtp-server';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { freePort } from '../../support/ports';
import { mailText, startSmtp, type Received } from '../../support/smtp';

const PASSWORD = 'correct horse battery';
const JSON_TYPE = { 'content-type': 'application/json' };

/** The confirmation link in a mail (its text part may be quoted-printable). */
function linkIn(raw: string): string {
  const match = /https?:\/\/\S+\/auth\/confirm\?\S+/u.exec(mailText(raw));
  if (!match) {
    throw new Error(`no confirmation link in:\n${raw}`);
  }
  return match[0];
}

describe('email confirmation (--smtp-url)', () => {
  let server: FedpodServer;
  let smtp: SMTPServer;
  let smtpPort: number;
  const received: Received[] = [];

  async function signup(username: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: JSON_TYPE,
      body: JSON.stringify({ username, email: `${username}@example.org`, password: PASSWORD }) });
    return { status: response.status, body: await response.json() as Record<string, unknown> };
  }

  async function login(username: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${server.baseUrl}auth/login`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ username, password: PASSWORD }) });
    return { status: response.status, body: await response.json() as Record<string, unknown> };
  }

  beforeAll(async() => {
    smtpPort = await freePort();
    smtp = await startSmtp(smtpPort, received);
    server = await startFedpod({ config: 'activitypub',
      extraArgs: [ '--smtp-url', `smtp://127.0.0.1:${smtpPort}`, '--smtp-from', 'pod@example.net' ]});
  });

  afterAll(async() => {
    await server?.stop();
    await new Promise<void>((resolve): void => {
      smtp?.close(resolve);
    });
  });

  it('mails a one-time link that confirms the account; no login before it', async() => {
    const signed = await signup('bob');
    expect(signed).toEqual({ status: 202, body: { webId: `${server.baseUrl}actors/bob`, pending: true, waitsFor: [ 'email' ], newUser: true }});
    expect(await login('bob')).toMatchObject({ status: 403, body: { error: 'email_unconfirmed' }});
    // Sent before the signup was answered.
    expect(received.filter((mail): boolean => mail.to.includes('bob@example.org'))).toHaveLength(1);
    const mail = received.find((entry): boolean => entry.to.includes('bob@example.org'))!;
    expect(mail.from).toBe('pod@example.net');
    const link = linkIn(mail.raw);
    expect(link.startsWith(`${server.baseUrl}auth/confirm?user=bob&token=`)).toBe(true);

    const wrong = new URL(link);
    wrong.searchParams.set('token', 'A'.repeat(43));
    expect((await fetch(wrong)).status).toBe(400);
    expect((await fetch(`${server.baseUrl}auth/confirm?user=bob`)).status).toBe(400);
    expect(await login('bob')).toMatchObject({ status: 403 });

    const confirmed = await fetch(link);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toEqual({ username: 'bob', confirmed: true, pending: false });
    expect((await login('bob')).status).toBe(200);
    // Once only.
    expect((await fetch(link)).status).toBe(400);
  });

  it('refuses an expired link, and the account stays unconfirmed', async() => {
    expect((await signup('carol')).status).toBe(202);
    const link = linkIn(received.find((mail): boolean => mail.to.includes('carol@example.org'))!.raw);
    // A day has passed: the record's expiry moved back, as the operator's clock would see it.
    const file = path.join(server.dataDir, 'accounts', 'users', 'carol.json');
    const account = JSON.parse(readFileSync(file, 'utf8')) as { confirmation: { expiresAt: string } };
    account.confirmation.expiresAt = new Date(Date.now() - 60_000).toISOString();
    writeFileSync(file, JSON.stringify(account));
    // The server reads a record again once its cache of it is a second old.
    await new Promise((resolve): void => {
      setTimeout(resolve, 1500);
    });
    expect((await fetch(link)).status).toBe(410);
    expect(await login('carol')).toMatchObject({ status: 403, body: { error: 'email_unconfirmed' }});
  });

  it('answers 503 and keeps no account when the mail cannot be sent', async() => {
    await new Promise<void>((resolve): void => {
      smtp.close(resolve);
    });
    const refused = await signup('dave');
    expect(refused).toMatchObject({ status: 503, body: { error: 'mail_unavailable' }});
    expect((await fetch(`${server.baseUrl}actors/dave`, { headers: { accept: 'application/activity+json' } })).status).toBe(404);
    smtp = await startSmtp(smtpPort, received);
    expect((await signup('dave')).status).toBe(202);
  });
});
