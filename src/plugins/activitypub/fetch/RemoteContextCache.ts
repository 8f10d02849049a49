import { getLoggerFor } from '@solid/community-server';
import type { JsonObject } from '../../ldp/Contexts';
import type { RemoteContextSource } from '../../ldp/DocumentLoader';
import type { RemoteFetcher } from './RemoteFetcher';
import { messageOf } from '../../../util/Errors';
import { InFlight } from '../../../util/InFlight';

interface Entry {
  document?: JsonObject;
  /** When a failure may be tried again (ms since the epoch). */
  retryAt?: number;
}

/**
 * JSON-LD contexts of other servers that no bundle covers (a Kroeg, Hubzilla or Funkwhale context),
 * fetched for reading their activities: over HTTPS only, through the fetcher's SSRF guard, its
 * timeout and its size limit (config gives this one a fetcher of its own with tighter bounds), once
 * per URL while it is cached (in memory, at most `maxEntries`, the oldest forgotten first). A URL
 * being fetched is awaited, not fetched again. A failure is logged once and remembered for
 * `failureTtlMs`; meanwhile the context reads as empty and the activities that use it are kept.
 */
export class RemoteContextCache implements RemoteContextSource {
  protected readonly logger = getLoggerFor(this);
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new InFlight<JsonObject | undefined>();

  public constructor(
    private readonly fetcher: RemoteFetcher,
    private readonly maxEntries = 1_000,
    private readonly failureTtlMs = 3_600_000,
  ) {}

  public async contextDocument(url: string): Promise<JsonObject | undefined> {
    const entry = this.entries.get(url);
    if (entry && (entry.document || (entry.retryAt ?? 0) > Date.now())) {
      return entry.document;
    }
    return this.inFlight.run(url, async(): Promise<JsonObject | undefined> => this.fetch(url));
  }

  private async fetch(url: string): Promise<JsonObject | undefined> {
    let document: JsonObject | undefined;
    let failure: string | undefined;
    try {
      if (new URL(url).protocol !== 'https:') {
        failure = 'only HTTPS contexts are fetched';
      } else {
        const answer = await this.fetcher.getJson(url, { accept: 'application/ld+json, application/json;q=0.9' });
        const json = answer.json as JsonObject | undefined;
        if (answer.status < 200 || answer.status >= 300) {
          failure = `answered ${answer.status}`;
        } else if (!json || typeof json !== 'object' || Array.isArray(json) || json['@context'] === undefined) {
          failure = `served ${answer.contentType ?? 'no content type'} without a JSON object with @context`;
        } else {
          document = json;
        }
      }
    } catch (error: unknown) {
      failure = messageOf(error);
    }
    if (failure) {
      this.logger.warn(`JSON-LD context ${url} not loaded (${failure}): read as empty for ${this.failureTtlMs / 1000} s`);
    }
    this.remember(url, document ? { document } : { retryAt: Date.now() + this.failureTtlMs });
    return document;
  }

  private remember(url: string, entry: Entry): void {
    this.entries.delete(url);
    this.entries.set(url, entry);
    if (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value!);
    }
  }
}
