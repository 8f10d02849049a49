import { getLoggerFor } from '@solid/community-server';
import type { Collections } from '../../storage/Collections';
import { badRequest, notFound } from '../../util/HttpErrors';
import type { AccountStore } from '../accounts/AccountStore';
import { ActorUrls } from '../activitypub/ActorUrls';
import type { AuditEntry, AuditLog } from './AuditLog';
import { dropFollowsOf } from './FollowDrops';
import { domainBlocksFromCsv } from './DomainBlockCsv';
import type { DomainBlock, DomainBlockInput, DomainBlocks } from './DomainBlocks';
import { hostOf, normalDomain } from './DomainBlocks';
import type { ModerationRole, ModerationRoles } from './ModerationRoles';

export interface ModerationServiceOptions {
  baseUrl: string;
  domainBlocks: DomainBlocks;
  roles: ModerationRoles;
  audit: AuditLog;
  accounts: AccountStore;
  /** The actors' collections (followers, following). */
  collections: Collections;
}

/** Whether `host` is `domain` or a subdomain of it. */
export function coveredBy(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * The operator's moderation actions, each written to the audit log with who did it: domain blocks
 * (a suspension also drops every follow between local accounts and the domain's actors, both ways),
 * their CSV import, and the operator role of local accounts. `by` is the acting operator's username,
 * or `operator` for the command line.
 */
export class ModerationService {
  protected readonly logger = getLoggerFor(this);
  private readonly urls: ActorUrls;

  public constructor(private readonly options: ModerationServiceOptions) {
    this.urls = new ActorUrls(options.baseUrl);
  }

  public get domainBlocks(): DomainBlocks {
    return this.options.domainBlocks;
  }

  public get roles(): ModerationRoles {
    return this.options.roles;
  }

  public async putDomainBlock(by: string, input: DomainBlockInput): Promise<DomainBlock> {
    if (hostOf(this.options.baseUrl) === normalDomain(input.domain)) {
      throw badRequest('This server\'s own domain cannot be blocked.', 'invalid_domain');
    }
    const { block, previous } = await this.options.domainBlocks.put(input);
    await this.options.audit.record({ by, action: previous ? 'domain_block.update' : 'domain_block.create', target: block.domain,
      detail: { severity: block.severity, rejectMedia: block.rejectMedia, ...block.privateComment ? { privateComment: block.privateComment } : {}}});
    if (block.severity === 'suspend' && previous?.severity !== 'suspend') {
      const dropped = await this.dropFollows(block.domain);
      this.logger.info(`Domain ${block.domain} suspended by ${by}: ${dropped} follows dropped`);
    }
    return block;
  }

  public async removeDomainBlock(by: string, domain: string): Promise<DomainBlock> {
    const removed = await this.options.domainBlocks.remove(domain);
    if (!removed) {
      throw notFound(`No block of ${domain}.`, 'not_found');
    }
    await this.options.audit.record({ by, action: 'domain_block.destroy', target: removed.domain, detail: { severity: removed.severity }});
    return removed;
  }

  /** Adds or changes every block of a CSV (Mastodon's export); how many. All rows are checked before any is stored. */
  public async importDomainBlocks(by: string, csv: string): Promise<number> {
    const inputs = domainBlocksFromCsv(csv);
    const own = hostOf(this.options.baseUrl);
    for (const input of inputs) {
      if (normalDomain(input.domain) === own) {
        throw badRequest('This server\'s own domain cannot be blocked.', 'invalid_domain');
      }
    }
    for (const input of inputs) {
      await this.putDomainBlock(by, input);
    }
    return inputs.length;
  }

  public async setRole(by: string, username: string, role: ModerationRole | 'none'): Promise<boolean> {
    if (!await this.options.accounts.findByUsername(username)) {
      throw notFound(`No account ${username}.`, 'unknown_user');
    }
    const changed = await this.options.roles.set(username, role);
    if (changed) {
      await this.options.audit.record({ by, action: 'account.role', target: this.urls.actor(username), detail: { role }});
    }
    return changed;
  }

  public async auditLog(limit?: number): Promise<AuditEntry[]> {
    return this.options.audit.list(limit);
  }

  /** Removes every actor of the domain (and its subdomains) from the local accounts' followers and following; how many. */
  private async dropFollows(domain: string): Promise<number> {
    return dropFollowsOf(this.options, (actor): boolean => {
      const host = hostOf(actor);
      return host !== undefined && coveredBy(host, domain);
    });
  }
}
