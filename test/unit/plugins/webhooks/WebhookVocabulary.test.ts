import { createHash } from 'node:crypto';
import { newWebhookSecret, WEBHOOK_SEGMENT, webhookKeyOf } from '../../../../src/plugins/webhooks/WebhookVocabulary';

describe('WebhookVocabulary', (): void => {
  it('makes secrets of 43 base64url characters, a new one each time', (): void => {
    const secrets = new Set(Array.from({ length: 50 }, (): string => newWebhookSecret()));
    expect(secrets.size).toBe(50);
    for (const secret of secrets) {
      expect(secret).toMatch(WEBHOOK_SEGMENT);
      expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    }
  });

  it('stores a webhook under the SHA-256 of its secret, itself a segment', (): void => {
    const secret = newWebhookSecret();
    const key = webhookKeyOf(secret);
    expect(key).toBe(createHash('sha256').update(secret).digest('base64url'));
    expect(key).toMatch(WEBHOOK_SEGMENT);
    expect(key).not.toBe(secret);
    expect(webhookKeyOf(secret)).toBe(key);
  });

  it.each([ '', 'x'.repeat(42), 'x'.repeat(44), `${'x'.repeat(42)}+`, `${'x'.repeat(42)}/` ])('refuses %j as a segment', (segment): void => {
    expect(WEBHOOK_SEGMENT.test(segment)).toBe(false);
  });
});
