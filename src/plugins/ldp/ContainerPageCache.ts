/**
 * Recently served container pages, each kept with the container's dc:modified at the time it was read.
 *
 * A listing embeds every member, so building one costs two store queries and a compaction of
 * each member; reading the container's modification date costs one small query. Every write through
 * Fedpod moves that date (ResourceGraphStore), so a page is served from here only while the
 * store still holds the date it was built at: nodes sharing a store never serve each other stale
 * pages. Bounded by entry count and by bytes, least recently used out first.
 */
export class ContainerPageCache<T extends { text: string }> {
  private readonly entries = new Map<string, { modified: string; value: T }>();
  private bytes = 0;

  public constructor(
    private readonly maxEntries = 512,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  public get(key: string, modified: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      return undefined;
    }
    if (entry.modified !== modified) {
      this.remove(key);
      return undefined;
    }
    // Re-insert so the Map's order stays least-recently-used first.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  public set(key: string, modified: string, value: T): void {
    const size = value.text.length;
    if (this.maxEntries <= 0 || size > this.maxBytes) {
      return;
    }
    this.remove(key);
    this.entries.set(key, { modified, value });
    this.bytes += size;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) {
        break;
      }
      this.remove(oldest);
    }
  }

  public get size(): number {
    return this.entries.size;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (entry) {
      this.bytes -= entry.value.text.length;
      this.entries.delete(key);
    }
  }
}
