import type { AccountStore } from '../../../../src/plugins/accounts/AccountStore';
import type { JobQueueFactory } from '../../../../src/plugins/queue/JobQueueFactory';
import { WebhookActionRegistry } from '../../../../src/plugins/webhooks/WebhookActionRegistry';
import { WebhookService } from '../../../../src/plugins/webhooks/WebhookService';
import { DEFAULT_WEBHOOK_CONTEXT } from '../../../../src/plugins/webhooks/WebhookVocabulary';
import type { ResourceGraphStore } from '../../../../src/storage/ResourceGraphStore';

const BASE = 'https://pod.example/';

describe('WebhookService and accounts that do not exist', () => {
  it('generates no webhook for a token whose account does not exist, storing nothing', async() => {
    const store = { createInContainer: jest.fn(), readData: jest.fn(async(): Promise<unknown[]> => []), delete: jest.fn() };
    const accounts = { findByUsername: jest.fn(async(): Promise<undefined> => undefined) } as unknown as AccountStore;
    const registry = new WebhookActionRegistry([ { name: 'store-in-container', run: jest.fn() } ]);
    const service = new WebhookService(BASE, store as unknown as ResourceGraphStore, accounts,
      { create: jest.fn() } as unknown as JobQueueFactory, registry, [ 'store-in-container' ], DEFAULT_WEBHOOK_CONTEXT, 'webhooks/', 2000);
    await expect(service.generate({ webId: `${BASE}actors/ghost`, username: 'ghost' }, 'store-in-container'))
      .rejects.toMatchObject({ statusCode: 403, errorCode: 'unknown_account' });
    expect(store.createInContainer).not.toHaveBeenCalled();
  });
});
