import type { NotificationChannel, ReadWriteLocker } from '@solid/community-server';
import { KeyValueChannelStorage, MemoryMapStorage } from '@solid/community-server';
import { SplitChannelStorage } from '../../../../src/plugins/notifications/SplitChannelStorage';

const WEBHOOK = 'http://www.w3.org/ns/solid/notifications#WebhookChannel2023';
const SOCKET = 'http://www.w3.org/ns/solid/notifications#WebSocketChannel2023';

/** No contention in these tests: each locked section simply runs. */
const locker = { withWriteLock: async<T>(_: unknown, run: () => Promise<T>): Promise<T> => run() } as unknown as ReadWriteLocker;

function channel(id: string, type: string, topic = 'https://pod.example/notes/'): NotificationChannel {
  return { id, type, topic };
}

describe('SplitChannelStorage', (): void => {
  let memoryBacking: MemoryMapStorage<unknown>;
  let durableBacking: MemoryMapStorage<unknown>;
  let storage: SplitChannelStorage;

  beforeEach((): void => {
    memoryBacking = new MemoryMapStorage();
    durableBacking = new MemoryMapStorage();
    storage = new SplitChannelStorage(new KeyValueChannelStorage(memoryBacking as never, locker),
      new KeyValueChannelStorage(durableBacking as never, locker), [ WEBHOOK ]);
  });

  async function keys(backing: MemoryMapStorage<unknown>): Promise<string[]> {
    const found: string[] = [];
    for await (const [ key ] of backing.entries()) {
      found.push(decodeURIComponent(key));
    }
    return found.sort();
  }

  it('keeps webhook channels in the durable storage and the others in memory, and finds both', async(): Promise<void> => {
    await storage.add(channel('hook', WEBHOOK));
    await storage.add(channel('socket', SOCKET));
    expect(await keys(durableBacking)).toEqual([ 'hook', 'https://pod.example/notes/' ]);
    expect(await keys(memoryBacking)).toEqual([ 'https://pod.example/notes/', 'socket' ]);
    expect(await storage.getAll({ path: 'https://pod.example/notes/' })).toEqual([ 'socket', 'hook' ]);
    expect((await storage.get('hook'))?.type).toBe(WEBHOOK);
    expect((await storage.get('socket'))?.type).toBe(SOCKET);
    expect(await storage.get('none')).toBeUndefined();
  });

  it('updates and deletes a channel where it is kept', async(): Promise<void> => {
    await storage.add(channel('hook', WEBHOOK));
    await storage.update({ ...channel('hook', WEBHOOK), rate: 1000 });
    expect((await storage.get('hook'))?.rate).toBe(1000);
    expect(await storage.delete('hook')).toBe(true);
    expect(await storage.get('hook')).toBeUndefined();
    expect(await storage.delete('hook')).toBe(false);
  });
});
