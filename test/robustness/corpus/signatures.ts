/**
 * Deliveries to a server started WITH --allow-private-network, signed for an actor it can fetch
 * (test/robustness/support/signer.ts): the key is found, so forged, replayed, wrong-digest and
 * expired deliveries must be refused by the signature check itself (401), while a correctly
 * signed one is accepted (202), the control that the key really was reachable.
 */
import { generateKeyPairSync } from 'node:crypto';
import { cavageHeaders, sha256Digest } from '../support/forgery';
import { AS } from './payloads';
import type { CaseGroup, HostileCase } from './types';

export interface SignedTarget {
  host: string;
  baseUrl: string;
  /** A local user the deliveries are addressed to. */
  username: string;
  /** The fetchable signer actor and its key id. */
  actor: string;
  keyId: string;
}

const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

function delivery(t: SignedTarget, label: string, actor = t.actor): string {
  return JSON.stringify({ '@context': AS, id: `${t.actor}/activities/${label}`, type: 'Create', actor,
    object: { id: `${t.actor}/notes/${label}`, type: 'Note', content: 'signed', attributedTo: actor },
    to: [ `${t.baseUrl}actors/${t.username}` ] });
}

function inboxes(t: SignedTarget): string[] {
  return [ '/inbox', `/actors/${t.username}/inbox` ];
}

export function forgedDeliveryGroup(t: SignedTarget): CaseGroup {
  const cases: HostileCase[] = [];
  for (const path of inboxes(t)) {
    const slug = path === '/inbox' ? 'shared' : 'personal';
    const refuse = (label: string, options: Partial<Parameters<typeof cavageHeaders>[0]> = {}, body?: string): void => {
      const sent = body ?? delivery(t, `${slug}-${label.replace(/\W+/gu, '-')}`);
      cases.push({
        name: `${path} (key fetchable): ${label}`,
        method: 'POST',
        path,
        headers: cavageHeaders({ method: 'post', path, host: t.host, body: sent, keyId: t.keyId, ...options }),
        body: sent,
        expect: [ 401 ],
        jsonApi: true,
      });
    };
    refuse('forged signature bytes', { signature: Buffer.alloc(256, 7).toString('base64') });
    refuse('signed with another key', { key: otherKey });
    refuse('wrong digest', { digest: sha256Digest('another body') });
    refuse('digest garbage', { digest: 'SHA-256=@@@' });
    refuse('body swapped under the signed digest (replayed)', { signedBody: delivery(t, `${slug}-original`) });
    refuse('signature made for another inbox (replayed)', { signedPath: path === '/inbox' ? `/actors/${t.username}/inbox` : '/inbox' });
    refuse('date 13 hours ago (expired)', { date: new Date(Date.now() - 13 * 3_600_000).toUTCString() });
    refuse('date 2 hours ahead', { date: new Date(Date.now() + 2 * 3_600_000).toUTCString() });
    refuse('date in 1970', { date: new Date(0).toUTCString() });
    refuse('digest not signed', { headers: '(request-target) host date' });
    refuse('host not signed', { headers: '(request-target) date digest' });
    refuse('request target not signed', { headers: 'host date digest' });
    refuse('algorithm hmac-sha256', { algorithm: 'hmac-sha256' });
    refuse('signed for another host', { host: 'evil.example' });
    refuse('activity of another actor than the signer', {}, delivery(t, `${slug}-impostor`, 'https://victim.example/actor'));
  }
  return { name: 'HTTP signatures, key fetchable', cases };
}

export function signedControlGroup(t: SignedTarget): CaseGroup {
  const cases: HostileCase[] = inboxes(t).map((path) => {
    const body = delivery(t, `control-${path === '/inbox' ? 'shared' : 'personal'}`);
    return {
      name: `${path} (key fetchable): correctly signed (control)`,
      method: 'POST',
      path,
      headers: cavageHeaders({ method: 'post', path, host: t.host, body, keyId: t.keyId }),
      body,
      expect: [ 202 ],
      jsonApi: true,
    };
  });
  return { name: 'HTTP signatures, key fetchable: accepted control', cases, mayChangeStore: true };
}
