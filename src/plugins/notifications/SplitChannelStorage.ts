import type { NotificationChannel, NotificationChannelStorage, ResourceIdentifier } from '@solid/community-server';

/**
 * Notification channels kept where they belong: those of the types in `durableTypes` (webhooks,
 * whose subscriber is a server expecting them to last) in durable storage, the others (a
 * WebSocket's, meaningless once the process that holds the socket is gone, and left behind by every
 * page that subscribed) in memory, so they neither outlive the process nor pile up on disk.
 */
export class SplitChannelStorage implements NotificationChannelStorage {
  /**
   * @param memory - Channels of the process's lifetime.
   * @param durable - Channels that outlive a restart.
   * @param durableTypes - Channel type IRIs kept in `durable`.
   */
  public constructor(
    private readonly memory: NotificationChannelStorage,
    private readonly durable: NotificationChannelStorage,
    private readonly durableTypes: string[],
  ) {}

  public async get(id: string): Promise<NotificationChannel | undefined> {
    return await this.memory.get(id) ?? this.durable.get(id);
  }

  public async getAll(topic: ResourceIdentifier): Promise<string[]> {
    return [ ...await this.memory.getAll(topic), ...await this.durable.getAll(topic) ];
  }

  public async add(channel: NotificationChannel): Promise<void> {
    await this.storageOf(channel).add(channel);
  }

  public async update(channel: NotificationChannel): Promise<void> {
    await this.storageOf(channel).update(channel);
  }

  public async delete(id: string): Promise<boolean> {
    return await this.memory.delete(id) || this.durable.delete(id);
  }

  private storageOf(channel: NotificationChannel): NotificationChannelStorage {
    return this.durableTypes.includes(channel.type) ? this.durable : this.memory;
  }
}
