import type { IncomingMessage, ServerResponse } from 'node:http';
import busboy from 'busboy';
import type { TokenService } from '../../plugins/accounts/TokenService';
import { domainBlocksToCsv } from '../../plugins/moderation/DomainBlockCsv';
import { DOMAIN_SEVERITIES } from '../../plugins/moderation/DomainBlocks';
import type { ModerationRoles } from '../../plugins/moderation/ModerationRoles';
import type { ModerationService } from '../../plugins/moderation/ModerationService';
import { badRequest, payloadTooLarge } from '../../util/HttpErrors';
import { escapeHtml } from '../http/Html';
import { mediaTypeOf } from '../http/HttpUtil';
import { domainBlockInput } from '../moderation/OperatorModerationHandler';
import { shortTime } from './SessionsPageHandler';
import type { FormOutcome, PageForm, PageSession, PageState } from './SettingsPageHandler';
import { SettingsPageHandler } from './SettingsPageHandler';

/** The largest CSV the import takes, as the operator route does. */
const CSV_LIMIT = 8 * 1024 * 1024;

/**
 * `/auth/operator/domain-blocks`: the operator's domain blocks (ModerationService, so each change is
 * in the audit log under the operator's username): the list with each block's severity, options and
 * comments, a form to add or change one, a button to remove each, an import of Mastodon's CSV (a
 * file; one bad row refuses the whole file) and its export (`?format=csv`).
 */
export class DomainBlocksPageHandler extends SettingsPageHandler {
  protected override readonly notices: Record<string, string> = { added: 'The block is saved.', removed: 'The block is removed.',
    imported: 'The file is imported.' };

  public constructor(baseUrl: string, tokens: TokenService, roles: ModerationRoles, private readonly moderation: ModerationService) {
    super(baseUrl, tokens, roles, true);
  }

  protected override async readForm(request: IncomingMessage, session: PageSession): Promise<PageForm> {
    if (mediaTypeOf(request.headers['content-type']) !== 'multipart/form-data') {
      return super.readForm(request, session);
    }
    return { fields: await readCsvUpload(request), files: new Map(), discard: async(): Promise<void> => undefined };
  }

  protected override async download(session: PageSession, query: URLSearchParams, response: ServerResponse): Promise<boolean> {
    if (query.get('format') !== 'csv') {
      return false;
    }
    const csv = domainBlocksToCsv(await this.moderation.domainBlocks.list());
    response.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="domain_blocks.csv"',
      'cache-control': 'no-store', 'content-length': Buffer.byteLength(csv) });
    response.end(csv);
    return true;
  }

  protected async act(session: PageSession, form: PageForm): Promise<FormOutcome> {
    switch (form.fields.get('do')) {
      case 'add': {
        const body: Record<string, unknown> = Object.fromEntries(form.fields);
        // A checkbox left unticked sends nothing: on this form that means false.
        for (const flag of [ 'reject_media', 'reject_reports', 'obfuscate' ]) {
          body[flag] = body[flag] === 'true' ? 'true' : 'false';
        }
        await this.moderation.putDomainBlock(session.username, domainBlockInput(body));
        return { done: 'added' };
      }
      case 'remove':
        await this.moderation.removeDomainBlock(session.username, form.fields.get('domain') ?? '');
        return { done: 'removed' };
      case 'import': {
        const csv = form.fields.get('csv') ?? '';
        if (csv.trim() === '') {
          throw badRequest('Choose a CSV file to import.', 'invalid_csv');
        }
        await this.moderation.importDomainBlocks(session.username, csv);
        return { done: 'imported' };
      }
      default:
        throw badRequest('The form needs do=add, do=remove or do=import.', 'invalid_form_action');
    }
  }

  protected async render(session: PageSession, state: PageState): Promise<{ title: string; body: string }> {
    const csrf = this.csrf.field(session.token);
    const blocks = await this.moderation.domainBlocks.list();
    const typed = state.form?.get('do') === 'add' ? state.form : undefined;
    const severity = typed?.get('severity') ?? 'suspend';
    const rows = blocks.map((block): string => `<tr><th scope="row">${escapeHtml(block.domain)}</th><td>${escapeHtml(block.severity)}</td>
<td>${block.rejectMedia ? 'yes' : 'no'}</td><td>${escapeHtml(block.publicComment ?? '')}</td><td>${escapeHtml(block.privateComment ?? '')}</td>
<td>${escapeHtml(shortTime(block.created))}</td>
<td><form method="post" class="inline">${csrf}<input type="hidden" name="do" value="remove"><input type="hidden" name="domain" value="${escapeHtml(block.domain)}">` +
      `<button type="submit" aria-label="Remove the block of ${escapeHtml(block.domain)}">Remove</button></form></td></tr>`).join('\n');
    return { title: 'Domain blocks', body: `<h1>Domain blocks</h1>
${this.message(state)}
<p><a href="${escapeHtml(this.base)}auth/operator">Operator</a> › Domain blocks. A block covers the domain and its subdomains.</p>
${blocks.length === 0 ? '<p class="meta">No domain is blocked.</p>' : `<div class="table" role="region" aria-label="Blocked domains" tabindex="0"><table>
<caption>Blocked domains</caption>
<thead><tr><th scope="col">Domain</th><th scope="col">Severity</th><th scope="col">Reject media</th><th scope="col">Public comment</th>
<th scope="col">Private comment</th><th scope="col">Since</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>
${rows}
</tbody></table></div>`}
<section><h2>Add or change a block</h2>
<form method="post">${csrf}<input type="hidden" name="do" value="add">
<label for="domain">Domain</label><input id="domain" name="domain" required value="${escapeHtml(typed?.get('domain') ?? '')}" placeholder="spam.example">
<label for="severity">Severity</label><select id="severity" name="severity">${DOMAIN_SEVERITIES.map((name): string =>
  `<option value="${name}"${name === severity ? ' selected' : ''}>${name}</option>`).join('')}</select>
<label class="check"><input id="reject_media" name="reject_media" type="checkbox" value="true"${typed?.get('reject_media') === 'true' ? ' checked' : ''}> Reject media</label>
<label class="check"><input id="obfuscate" name="obfuscate" type="checkbox" value="true"${typed?.get('obfuscate') === 'true' ? ' checked' : ''}> Obfuscate the domain in the public list</label>
<label for="public_comment">Public comment</label><input id="public_comment" name="public_comment" maxlength="1000" value="${escapeHtml(typed?.get('public_comment') ?? '')}">
<label for="private_comment">Private comment (operators only)</label><input id="private_comment" name="private_comment" maxlength="1000" value="${escapeHtml(typed?.get('private_comment') ?? '')}">
<button type="submit">Save block</button>
</form></section>
<section><h2>Import and export</h2>
<p><a href="${escapeHtml(this.base)}auth/operator/domain-blocks?format=csv" download>Export as CSV</a> (Mastodon's format; private comments are not exported).</p>
<form method="post" enctype="multipart/form-data">${csrf}<input type="hidden" name="do" value="import">
<label for="csv">Mastodon's CSV, or one domain a line</label><input id="csv" name="csv" type="file" accept=".csv,text/csv,text/plain" required>
<button type="submit">Import</button>
</form></section>` };
  }
}

/** The text fields of a multipart form and its one file `csv` as text (8 MiB at most: 413 beyond). */
async function readCsvUpload(request: IncomingMessage): Promise<Map<string, string>> {
  const fields = new Map<string, string>();
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: request.headers, limits: { files: 1, fields: 16, fileSize: CSV_LIMIT, fieldSize: 64 * 1024 }});
  } catch {
    request.resume();
    throw badRequest('Send the form as multipart/form-data.');
  }
  await new Promise<void>((resolve, reject): void => {
    parser.on('file', (name, stream): void => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer): void => {
        chunks.push(chunk);
      });
      stream.on('limit', (): void => reject(payloadTooLarge(`The file is larger than ${CSV_LIMIT} bytes.`)));
      stream.on('end', (): void => {
        if (name === 'csv') {
          fields.set('csv', Buffer.concat(chunks).toString('utf8'));
        }
      });
    });
    parser.on('field', (name, value): void => {
      fields.set(name, value);
    });
    parser.on('close', resolve);
    parser.on('error', reject);
    request.pipe(parser);
  });
  return fields;
}
