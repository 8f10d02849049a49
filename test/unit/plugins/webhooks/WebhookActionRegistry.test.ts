import type { WebhookAction } from '../../../../src/plugins/webhooks/WebhookAction';
import { WebhookActionRegistry } from '../../../../src/plugins/webhooks/WebhookActionRegistry';

function action(name: string): WebhookAction {
  return { name, run: async(): Promise<void> => undefined };
}

describe('WebhookActionRegistry', (): void => {
  it('finds each action by its name and lists the names sorted', (): void => {
    const store = action('store-in-container');
    const post = action('post-to-outbox');
    const registry = new WebhookActionRegistry([ store, post ]);
    expect(registry.get('store-in-container')).toBe(store);
    expect(registry.get('post-to-outbox')).toBe(post);
    expect(registry.has('post-to-outbox')).toBe(true);
    expect(registry.names).toEqual([ 'post-to-outbox', 'store-in-container' ]);
  });

  it('knows nothing of a name no action has, and is empty without actions', (): void => {
    expect(new WebhookActionRegistry([ action('a') ]).get('b')).toBeUndefined();
    expect(new WebhookActionRegistry([ action('a') ]).has('b')).toBe(false);
    expect(new WebhookActionRegistry().names).toEqual([]);
  });

  it('refuses two actions with one name, naming it', (): void => {
    expect((): WebhookActionRegistry => new WebhookActionRegistry([ action('a'), action('a') ]))
      .toThrow('Two webhook actions are named a');
  });

  it.each([ '', '-leading-dash', 'has space', 'slash/name', 'ü', 'x'.repeat(101) ])('refuses the action name %j', (name): void => {
    expect((): WebhookActionRegistry => new WebhookActionRegistry([ action(name) ])).toThrow('Invalid webhook action name');
  });

  it.each([ 'a', 'A9', 'my.app:sync_v2-1', 'x'.repeat(100) ])('takes the action name %j', (name): void => {
    expect(new WebhookActionRegistry([ action(name) ]).has(name)).toBe(true);
  });
});
