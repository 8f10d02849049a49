import { recordNotFound } from '../../plugins/mastodon/MastodonRecords';
import { createHash } from 'node:crypto';
import type { DomainBlock } from '../../plugins/moderation/DomainBlocks';
import type { ModerationService } from '../../plugins/moderation/ModerationService';
import { sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { domainBlockInput } from '../moderation/OperatorModerationHandler';
import { MastodonHandler } from './MastodonHandler';
import { readOAuthParams } from './OAuthParams';

const digestOf = (domain: string): string => createHash('sha256').update(domain).digest('hex');

/** Mastodon's Admin::DomainBlock entity; its id is the domain (ids are opaque strings to apps). */
export function adminDomainBlock(block: DomainBlock): Record<string, unknown> {
  return {
    id: block.domain,
    domain: block.domain,
    digest: digestOf(block.domain),
    created_at: block.created,
    severity: block.severity,
    reject_media: block.rejectMedia,
    reject_reports: block.rejectReports,
    private_comment: block.privateComment ?? null,
    public_comment: block.publicComment ?? null,
    obfuscate: block.obfuscate,
  };
}

/** Mastodon's obfuscation: every other letter of the first labels starred out, the last label shown. */
function obfuscated(domain: string): string {
  const labels = domain.split('.');
  return labels.map((label, index): string => (index === labels.length - 1 ? label :
    [ ...label ].map((char, at): string => (at % 2 === 1 ? '*' : char)).join(''))).join('.');
}


/**
 * Domain blocks in the Mastodon API, by the route's name: `mastodon-admin-domain-blocks` (GET lists,
 * POST adds: 422 when the domain is blocked already), `mastodon-admin-domain-block` (`:id`, the
 * domain: GET, PUT changes, DELETE removes), for operators (OperatorRoleAccess); and
 * `mastodon-instance-domain-blocks`, the public list with the public comments (obfuscated domains
 * starred out), as Mastodon shows it when the operator publishes it.
 */
export class MastodonDomainBlocksHandler extends MastodonHandler {
  public constructor(private readonly moderation: ModerationService) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const blocks = this.moderation.domainBlocks;
    const by = operation.agent.username!;
    switch (`${operation.route.name} ${request.method}`) {
      case 'mastodon-instance-domain-blocks GET':
      case 'mastodon-instance-domain-blocks HEAD':
        sendJson(response, 200, (await blocks.list()).filter((block): boolean => block.severity !== 'noop').map((block) => ({
          domain: block.obfuscate ? obfuscated(block.domain) : block.domain,
          digest: digestOf(block.domain),
          severity: block.severity,
          comment: block.publicComment ?? null,
        })));
        return;
      case 'mastodon-admin-domain-blocks POST': {
        const input = domainBlockInput(await readOAuthParams(request, operation.target.query));
        const existing = (await blocks.list()).find((block): boolean => block.domain === input.domain.trim().toLowerCase());
        if (existing) {
          sendJson(response, 422, { error: `${existing.domain} is already blocked`, existing_domain_block: adminDomainBlock(existing) });
          return;
        }
        sendJson(response, 200, adminDomainBlock(await this.moderation.putDomainBlock(by, { severity: 'silence', ...input })));
        return;
      }
      case 'mastodon-admin-domain-blocks GET':
      case 'mastodon-admin-domain-blocks HEAD':
        sendJson(response, 200, (await blocks.list()).map(adminDomainBlock));
        return;
      default: {
        const domain = operation.params.id ?? '';
        const block = (await blocks.list()).find((entry): boolean => entry.domain === domain);
        if (!block) {
          throw recordNotFound('No block of that domain.');
        }
        if (request.method === 'DELETE') {
          await this.moderation.removeDomainBlock(by, domain);
          sendJson(response, 200, {});
        } else if (request.method === 'PUT') {
          const params = await readOAuthParams(request, operation.target.query);
          sendJson(response, 200, adminDomainBlock(await this.moderation.putDomainBlock(by, domainBlockInput({ ...params, domain }))));
        } else {
          sendJson(response, 200, adminDomainBlock(block));
        }
      }
    }
  }
}
