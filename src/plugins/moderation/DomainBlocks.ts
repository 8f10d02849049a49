import { domainToASCII } from 'node:url';
import { isIP } from 'node:net';
import { badRequest } from '../../util/HttpErrors';
import type { ChangeCounter } from '../cluster/ChangeCounter';
import type { DomainPolicy } from '../outbound/DomainPolicy';
import { WatchedRecords } from './WatchedRecords';

/** Mastodon's severities: noop only records a comment (or rejects media), silence hides, suspend cuts off. */
export type DomainSeverity = 'noop' | 'silence' | 'suspend';

export const DOMAIN_SEVERITIES: readonly DomainSeverity[] = [ 'noop', 'silence', 'suspend' ];

/** An operator's block of a domain and every subdomain of it. */
export interface DomainBlock {
  /** Lower case, in ASCII (IDNs as punycode). */
  domain: string;
  severity: DomainSeverity;
  rejectMedia: boolean;
  rejectReports: boolean;
  /** Shown to everyone (GET /api/v1/instance/domain_blocks). */
  publicComment?: string;
  /** For the operators only. */
  privateComment?: string;
  /** The domain is shown partly starred out to the public. */
  obfuscate: boolean;
  /** ISO 8601. */
  created: string;
}

/** What an operator gives to add or change a block; missing fields keep their value (or the default). */
export type DomainBlockInput = Partial<Omit<DomainBlock, 'domain' | 'created'>> & { domain: string };

const MAX_COMMENT = 1000;

/**
 * A domain as blocks name it: lower case, ASCII, no trailing dot, no port; an IP literal is kept as
 * it is (a server reached by address). Throws 400 when it is not a host name.
 */
export function normalDomain(text: string): string {
  const trimmed = text.trim().toLowerCase().replace(/\.$/u, '');
  if (isIP(trimmed) !== 0) {
    return trimmed;
  }
  // domainToASCII reads a host out of URL-ish text ('a/b' is 'a'): anything a host cannot hold is refused first.
  const ascii = /[\s/\\?#@:%[\]]/u.test(trimmed) ? '' : domainToASCII(trimmed);
  if (!ascii || ascii.length > 253 || !/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/u.test(ascii)) {
    throw badRequest(`Not a domain: ${JSON.stringify(text.slice(0, 100))}.`, 'invalid_domain');
  }
  return ascii;
}

/** The host of a URL or host (without port), in the form blocks use; undefined when there is none. */
export function hostOf(urlOrHost: string): string | undefined {
  try {
    const host = urlOrHost.includes('/') ? new URL(urlOrHost).hostname : urlOrHost.replace(/:\d+$/u, '');
    return normalDomain(host.replace(/^\[|\]$/gu, ''));
  } catch {
    return undefined;
  }
}

/**
 * The operator's domain blocks, one JSON file per domain under `<data-dir>/moderation/domain-blocks/`
 * (kept across restarts, shared by the nodes of one data directory). Every check reads the shared
 * `changes` counter first (one read serves the checks that arrive meanwhile) and reloads the blocks
 * when it moved, so a block added on any node (or by the CLI through one) holds on every node at once.
 * A block covers its domain and every subdomain: `example.com` covers `social.example.com`.
 */
export class DomainBlocks implements DomainPolicy {
  private readonly records: WatchedRecords<DomainBlock>;

  public constructor(dataDir: string, changes?: ChangeCounter) {
    this.records = new WatchedRecords(dataDir, 'moderation/domain-blocks', changes);
  }

  /** Every block, by domain. */
  public async list(): Promise<DomainBlock[]> {
    return [ ...(await this.blocks()).values() ].sort((left, right): number => left.domain.localeCompare(right.domain));
  }

  /** The block that covers a host (the most specific one), or undefined. */
  public async blockOf(urlOrHost: string): Promise<DomainBlock | undefined> {
    const host = hostOf(urlOrHost);
    if (!host) {
      return undefined;
    }
    const blocks = await this.blocks();
    if (isIP(host) !== 0) {
      return blocks.get(host);
    }
    const labels = host.split('.');
    for (let start = 0; start < labels.length; start += 1) {
      const block = blocks.get(labels.slice(start).join('.'));
      if (block) {
        return block;
      }
    }
    return undefined;
  }

  public async refuses(host: string): Promise<boolean> {
    return (await this.blockOf(host))?.severity === 'suspend';
  }

  /** Whether the host's posts stay out of public timelines (silenced or suspended). */
  public async hidesFromPublic(urlOrHost: string): Promise<boolean> {
    const severity = (await this.blockOf(urlOrHost))?.severity;
    return severity === 'silence' || severity === 'suspend';
  }

  /** Adds a block, or changes the one of that domain; the block as stored, and the one it replaced. */
  public async put(input: DomainBlockInput, now = new Date()): Promise<{ block: DomainBlock; previous?: DomainBlock }> {
    const domain = normalDomain(input.domain);
    const previous = (await this.blocks()).get(domain);
    if (input.severity !== undefined && !DOMAIN_SEVERITIES.includes(input.severity)) {
      throw badRequest(`severity must be one of ${DOMAIN_SEVERITIES.join(', ')}.`, 'invalid_severity');
    }
    for (const comment of [ input.publicComment, input.privateComment ]) {
      if (comment !== undefined && comment.length > MAX_COMMENT) {
        throw badRequest(`A comment may have ${MAX_COMMENT} characters at most.`, 'invalid_comment');
      }
    }
    const block: DomainBlock = {
      domain,
      severity: input.severity ?? previous?.severity ?? 'silence',
      rejectMedia: input.rejectMedia ?? previous?.rejectMedia ?? false,
      rejectReports: input.rejectReports ?? previous?.rejectReports ?? false,
      obfuscate: input.obfuscate ?? previous?.obfuscate ?? false,
      created: previous?.created ?? now.toISOString(),
    };
    const publicComment = input.publicComment ?? previous?.publicComment;
    const privateComment = input.privateComment ?? previous?.privateComment;
    if (publicComment) {
      block.publicComment = publicComment;
    }
    if (privateComment) {
      block.privateComment = privateComment;
    }
    await this.records.write(domain, block);
    return { block, ...previous ? { previous } : {} };
  }

  /** Removes the block of exactly that domain; the block removed, or undefined when there was none. */
  public async remove(domain: string): Promise<DomainBlock | undefined> {
    const name = normalDomain(domain);
    const previous = (await this.blocks()).get(name);
    if (!previous) {
      return undefined;
    }
    await this.records.write(name, undefined);
    return previous;
  }

  private async blocks(): Promise<Map<string, DomainBlock>> {
    return this.records.all();
  }
}
