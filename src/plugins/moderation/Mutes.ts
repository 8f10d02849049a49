import { FileKeyValueStorage } from '../../storage/FileKeyValueStorage';

/** One muted account, as a user muted it. */
export interface Mute {
  /** The muted actor's IRI. */
  actor: string;
  /** Whether their notifications are hidden too (Mastodon's default: true). */
  notifications: boolean;
  /** ISO 8601. */
  created: string;
  /** ISO 8601; none: until unmuted. */
  expiresAt?: string;
}

/**
 * Users' mutes, one JSON file per user under `<data-dir>/moderation/mutes/` (its list of muted
 * actors), read on each use so that every node sees a mute at once. A mute past its expiry counts
 * as none. `isMuted(username, actor)` is what timelines and notifications ask.
 */
export class Mutes {
  private readonly storage: FileKeyValueStorage<Mute[]>;

  public constructor(dataDir: string) {
    this.storage = new FileKeyValueStorage(dataDir, 'moderation/mutes');
  }

  /** The user's mutes in force, newest first. */
  public async list(username: string, now = Date.now()): Promise<Mute[]> {
    return ((await this.storage.get(username)) ?? [])
      .filter((mute): boolean => !mute.expiresAt || Date.parse(mute.expiresAt) > now)
      .sort((left, right): number => right.created.localeCompare(left.created));
  }

  /** The mute of `actor` by `username`, when one is in force. */
  public async muteOf(username: string, actor: string): Promise<Mute | undefined> {
    return (await this.list(username)).find((mute): boolean => mute.actor === actor);
  }

  /** Whether `username` muted `actor` (for timelines; `notifications` also asks whether their notifications are hidden). */
  public async isMuted(username: string, actor: string, notifications = false): Promise<boolean> {
    const mute = await this.muteOf(username, actor);
    return mute !== undefined && (!notifications || mute.notifications);
  }

  /** Mutes (or changes the mute of) an actor; `durationSeconds` 0 or none: until unmuted. */
  public async mute(username: string, actor: string, notifications = true, durationSeconds = 0, now = new Date()): Promise<Mute> {
    const mute: Mute = { actor, notifications, created: now.toISOString(),
      ...durationSeconds > 0 ? { expiresAt: new Date(now.getTime() + durationSeconds * 1000).toISOString() } : {} };
    const others = (await this.list(username, now.getTime())).filter((entry): boolean => entry.actor !== actor);
    await this.storage.set(username, [ mute, ...others ]);
    return mute;
  }

  public async unmute(username: string, actor: string): Promise<void> {
    const mutes = await this.list(username);
    const kept = mutes.filter((entry): boolean => entry.actor !== actor);
    if (kept.length !== mutes.length) {
      await this.storage.set(username, kept);
    }
  }
}
