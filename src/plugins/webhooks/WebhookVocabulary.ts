import { createHash, randomBytes } from 'node:crypto';
import { FEDPOD_NS } from '../../storage/StoreVocabulary';

/**
 * Fedpod's core vocabulary namespace, `urn:fedpod:ns:` (a URN: stable, and it claims no domain).
 * Webhook records and payloads are described with it.
 */
export const WEBHOOK_NS = FEDPOD_NS;

export const WEBHOOK_TERMS = {
  Webhook: `${WEBHOOK_NS}Webhook`,
  WebhookPayload: `${WEBHOOK_NS}WebhookPayload`,
  user: `${WEBHOOK_NS}user`,
  username: `${WEBHOOK_NS}username`,
  action: `${WEBHOOK_NS}action`,
  created: `${WEBHOOK_NS}created`,
  data: `${WEBHOOK_NS}data`,
  job: `${WEBHOOK_NS}job`,
  received: `${WEBHOOK_NS}received`,
} as const;

export const RDF_JSON = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON';

/**
 * The default `context` setting: `@vocab` is Fedpod's core vocabulary, with the usual `id`/`type`
 * aliases, so `{ id, user, action, created }` reads as `<id> fedpod:user <user>; fedpod:action ...`.
 */
export const DEFAULT_WEBHOOK_CONTEXT: Record<string, unknown> = {
  '@vocab': WEBHOOK_NS,
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  id: '@id',
  type: '@type',
  user: { '@type': '@id' },
  created: { '@type': 'xsd:dateTime' },
  received: { '@type': 'xsd:dateTime' },
  data: { '@type': '@json' },
};

/** Unguessable last segment of a webhook URI: 32 bytes (256 bits) from the CSPRNG, base64url (43 characters). */
export function newWebhookSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The key a webhook is stored under: base64url SHA-256 of its secret segment. The secret itself is
 * never stored, so neither a listing of the container nor a read of the store reveals a usable URI.
 */
export function webhookKeyOf(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url');
}

/** Secrets and keys are both 43 base64url characters. */
export const WEBHOOK_SEGMENT = /^[A-Za-z0-9_-]{43}$/u;
