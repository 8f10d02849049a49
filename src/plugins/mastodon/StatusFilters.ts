import type { Reader, StatusFilter, TimelineKind } from './MastodonStatuses';

/**
 * Several StatusFilters as one (MastodonStatuses takes one): a status is hidden when any of them
 * hides it, e.g. moderation's (suspended domains, mutes) and the exclusive lists' (home only).
 */
export class StatusFilters implements StatusFilter {
  private readonly filters: StatusFilter[];

  public constructor(filters: StatusFilter[]) {
    // A part left out of the setup (parts/moderation/none.json) leaves its filter undefined.
    this.filters = filters.filter((filter): boolean => filter !== undefined);
  }

  public async hides(author: string, reader: Reader, timeline: TimelineKind): Promise<boolean> {
    for (const filter of this.filters) {
      if (await filter.hides(author, reader, timeline)) {
        return true;
      }
    }
    return false;
  }

  public async marksSensitive(author: string): Promise<boolean> {
    return this.any(async(filter): Promise<boolean> => await filter.marksSensitive?.(author) === true);
  }

  public async rejectsMedia(author: string): Promise<boolean> {
    return this.any(async(filter): Promise<boolean> => await filter.rejectsMedia?.(author) === true);
  }

  private async any(test: (filter: StatusFilter) => Promise<boolean>): Promise<boolean> {
    for (const filter of this.filters) {
      if (await test(filter)) {
        return true;
      }
    }
    return false;
  }
}
