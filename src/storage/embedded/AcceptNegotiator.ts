/** A representation the server can produce, and the media ranges that select it. */
export interface MediaTypeOffer {
  /** Media type produced (also the Oxigraph format name). */
  readonly produces: string;
  /** Media types a client may ask for to get it, e.g. application/json for SPARQL JSON. */
  readonly answersTo: readonly string[];
}

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

const CACHE_LIMIT = 512;

/**
 * Picks the best offer for an Accept header, honouring q-values and preferring
 * the most specific matching range (exact > type/* > *\/*). Ties go to the
 * earlier offer; nothing acceptable falls back to the first offer, which is
 * friendlier to SPARQL clients than a 406. Clients send the same few headers over
 * and over, so answers are cached by header string.
 */
export class AcceptNegotiator {
  private readonly cache = new Map<string, string>();

  public constructor(private readonly offers: readonly MediaTypeOffer[]) {
    if (offers.length === 0) {
      throw new Error('AcceptNegotiator needs at least one offer');
    }
  }

  public get fallback(): string {
    return this.offers[0].produces;
  }

  public choose(accept: string | undefined): string {
    if (!accept) {
      return this.fallback;
    }
    let chosen = this.cache.get(accept);
    if (chosen === undefined) {
      chosen = this.negotiate(accept);
      if (this.cache.size >= CACHE_LIMIT) {
        this.cache.clear();
      }
      this.cache.set(accept, chosen);
    }
    return chosen;
  }

  /** The offer that produces or answers to `mediaType`, if any (for format= parameters). */
  public find(mediaType: string): string | undefined {
    const wanted = mediaType.toLowerCase();
    return this.offers.find((offer): boolean => offer.produces === wanted || offer.answersTo.includes(wanted))?.produces;
  }

  private negotiate(accept: string): string {
    const ranges = this.parse(accept);
    let best = this.fallback;
    let bestQ = 0;
    for (const offer of this.offers) {
      for (const mediaType of offer.answersTo) {
        const q = this.qualityOf(mediaType, ranges);
        if (q > bestQ) {
          bestQ = q;
          best = offer.produces;
        }
      }
    }
    return best;
  }

  private qualityOf(mediaType: string, ranges: readonly MediaRange[]): number {
    const slash = mediaType.indexOf('/');
    const type = mediaType.slice(0, slash);
    const subtype = mediaType.slice(slash + 1);
    let specificity = -1;
    let q = 0;
    for (const range of ranges) {
      let rangeSpecificity: number;
      if (range.type === type && range.subtype === subtype) {
        rangeSpecificity = 2;
      } else if (range.type === type && range.subtype === '*') {
        rangeSpecificity = 1;
      } else if (range.type === '*' && range.subtype === '*') {
        rangeSpecificity = 0;
      } else {
        continue;
      }
      if (rangeSpecificity > specificity) {
        specificity = rangeSpecificity;
        q = range.q;
      }
    }
    return q;
  }

  private parse(accept: string): MediaRange[] {
    const ranges: MediaRange[] = [];
    for (const part of accept.split(',')) {
      const [ mediaRange, ...parameters ] = part.split(';');
      const trimmed = mediaRange.trim().toLowerCase();
      const slash = trimmed.indexOf('/');
      if (slash <= 0 || slash === trimmed.length - 1) {
        continue;
      }
      let q = 1;
      for (const parameter of parameters) {
        const [ key, value ] = parameter.split('=');
        if (key.trim().toLowerCase() === 'q' && value !== undefined) {
          const parsed = Number.parseFloat(value.trim());
          q = Number.isNaN(parsed) ? 0 : Math.min(Math.max(parsed, 0), 1);
        }
      }
      ranges.push({ type: trimmed.slice(0, slash), subtype: trimmed.slice(slash + 1), q });
    }
    return ranges;
  }
}
