import type { DomainBlockInput, DomainSeverity } from '../../plugins/moderation/DomainBlocks';
import { domainBlocksToCsv } from '../../plugins/moderation/DomainBlockCsv';
import type { ModerationService } from '../../plugins/moderation/ModerationService';
import { badRequest, methodNotAllowed } from '../../util/HttpErrors';
import { readBody, readJsonBody, sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';

const BODY_LIMIT = 16 * 1024;
const CSV_LIMIT = 8 * 1024 * 1024;
/** Who the audit log names for the command line (the operator secret has no account). */
export const CLI = 'operator';

/** A JSON object body; 400 otherwise. */
export function objectOf(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('Send a JSON object.', 'invalid_body');
  }
  return body as Record<string, unknown>;
}

/** The optional string field of a body; 400 when it is there and not a string. */
export function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value !== undefined && value !== null && typeof value !== 'string') {
    throw badRequest(`${name} must be a string.`, 'invalid_body');
  }
  return value ?? undefined;
}

/** The optional boolean field of a body (true/false, or their text as forms send them); 400 otherwise. */
export function booleanField(body: Record<string, unknown>, name: string): boolean | undefined {
  const value = body[name];
  if (value === undefined || value === null || value === '') {
    return undefined;
  }
  if (typeof value === 'boolean') {
    return value;
  }
  if (value === 'true' || value === '1') {
    return true;
  }
  if (value === 'false' || value === '0') {
    return false;
  }
  throw badRequest(`${name} must be true or false.`, 'invalid_body');
}

/** A domain block from the fields Mastodon's admin API names (snake case). */
export function domainBlockInput(body: Record<string, unknown>): DomainBlockInput {
  const domain = stringField(body, 'domain');
  if (!domain) {
    throw badRequest('domain is missing.', 'invalid_body');
  }
  const input: DomainBlockInput = { domain };
  const severity = stringField(body, 'severity');
  const fields: [keyof DomainBlockInput, unknown][] = [
    [ 'severity', severity as DomainSeverity | undefined ],
    [ 'rejectMedia', booleanField(body, 'reject_media') ],
    [ 'rejectReports', booleanField(body, 'reject_reports') ],
    [ 'obfuscate', booleanField(body, 'obfuscate') ],
    [ 'publicComment', stringField(body, 'public_comment') ],
    [ 'privateComment', stringField(body, 'private_comment') ],
  ];
  for (const [ name, value ] of fields) {
    if (value !== undefined) {
      Object.assign(input, { [name]: value });
    }
  }
  return input;
}

/**
 * The operator's moderation commands, answered by the running server behind OperatorAccess (the
 * secret in the data directory), by the route's name:
 * - `operator-domain-blocks`: GET lists (JSON, or Mastodon's CSV with `?format=csv`), POST adds or
 *   changes one (`{domain, severity, reject_media, reject_reports, public_comment, private_comment, obfuscate}`),
 *   DELETE `{domain}` removes one;
 * - `operator-domain-blocks-import`: POST a CSV body (Mastodon's export);
 * - `operator-roles`: GET lists, POST `{user, role}` (operator, or none) gives or takes;
 * - `operator-audit-log`: GET the newest entries (`?limit=`).
 */
export class OperatorModerationHandler extends JsonHttpHandler {
  public constructor(private readonly moderation: ModerationService) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const method = request.method;
    switch (`${operation.route.name} ${method}`) {
      case 'operator-domain-blocks GET': {
        const blocks = await this.moderation.domainBlocks.list();
        if (operation.target.query.get('format') === 'csv') {
          response.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
          response.end(domainBlocksToCsv(blocks));
          return;
        }
        sendJson(response, 200, blocks);
        return;
      }
      case 'operator-domain-blocks POST':
        sendJson(response, 200, await this.moderation.putDomainBlock(CLI, domainBlockInput(objectOf(await readJsonBody(request, BODY_LIMIT)))));
        return;
      case 'operator-domain-blocks DELETE': {
        const domain = stringField(objectOf(await readJsonBody(request, BODY_LIMIT)), 'domain');
        if (!domain) {
          throw badRequest('domain is missing.', 'invalid_body');
        }
        sendJson(response, 200, await this.moderation.removeDomainBlock(CLI, domain));
        return;
      }
      case 'operator-domain-blocks-import POST': {
        const csv = (await readBody(request, CSV_LIMIT)).toString('utf8');
        sendJson(response, 200, { imported: await this.moderation.importDomainBlocks(CLI, csv) });
        return;
      }
      case 'operator-roles GET':
        sendJson(response, 200, await this.moderation.roles.list());
        return;
      case 'operator-roles POST': {
        const body = objectOf(await readJsonBody(request, BODY_LIMIT));
        const user = stringField(body, 'user');
        const role = stringField(body, 'role');
        if (!user || (role !== 'operator' && role !== 'none')) {
          throw badRequest('Send {"user": "<username>", "role": "operator" or "none"}.', 'invalid_body');
        }
        sendJson(response, 200, { user, role, changed: await this.moderation.setRole(CLI, user, role) });
        return;
      }
      case 'operator-audit-log GET': {
        const limit = Number(operation.target.query.get('limit') ?? 100);
        sendJson(response, 200, await this.moderation.auditLog(Number.isInteger(limit) && limit > 0 ? Math.min(limit, 10_000) : 100));
        return;
      }
      default:
        throw methodNotAllowed(`${method ?? ''} is not served here.`, operation.route.name === 'operator-domain-blocks' ?
          'GET, POST, DELETE' : operation.route.name.endsWith('log') ? 'GET' : operation.route.name === 'operator-roles' ? 'GET, POST' : 'POST');
    }
  }
}
