import { EventEmitter } from 'node:events';
import type { ActivityEmitter, RepresentationMetadata, ResourceIdentifier } from '@solid/community-server';
import { AS } from '@solid/community-server';
import { StoreChangeNotifier } from '../../../../src/plugins/notifications/StoreChangeNotifier';

describe('StoreChangeNotifier', (): void => {
  it('emits the events CSS\'s store emits for each change', (): void => {
    const emitter = new EventEmitter();
    const events: string[] = [];
    emitter.on('changed', (target: ResourceIdentifier, activity: { value: string }, metadata: RepresentationMetadata): void => {
      const object = metadata.get(AS.terms.object)?.value;
      events.push(`${activity.value.slice(AS.namespace.length)} ${target.path}${object ? ` ${object}` : ''}`);
    });
    const notifier = new StoreChangeNotifier(emitter as unknown as ActivityEmitter);
    notifier.created('https://pod.example/c/', 'https://pod.example/c/a');
    notifier.updated('https://pod.example/c/a');
    notifier.deleted('https://pod.example/c/', 'https://pod.example/c/a');
    notifier.deleted(undefined, 'https://pod.example/c/a.acl');
    expect(events).toEqual([
      'Create https://pod.example/c/a',
      'Add https://pod.example/c/ https://pod.example/c/a',
      'Update https://pod.example/c/a',
      'Delete https://pod.example/c/a',
      'Remove https://pod.example/c/ https://pod.example/c/a',
      'Delete https://pod.example/c/a.acl',
    ]);
  });

  it('announces nothing of resources outside the server\'s base URL (kept copies of other servers\' activities)', (): void => {
    const emitter = new EventEmitter();
    const targets: string[] = [];
    emitter.on('changed', (target: ResourceIdentifier): void => {
      targets.push(target.path);
    });
    const notifier = new StoreChangeNotifier(emitter as unknown as ActivityEmitter, 'https://pod.example/');
    notifier.updated('https://remote.example/activities/1');
    notifier.updated('https://pod.example.evil/activities/1');
    notifier.deleted(undefined, 'https://remote.example/notes/1');
    notifier.updated('https://pod.example/actors/alice/inbox');
    expect(targets).toEqual([ 'https://pod.example/actors/alice/inbox' ]);
  });
});
