import type { IncomingMessage } from 'node:http';
import type { TokenService } from '../../plugins/accounts/TokenService';
import { EXPORT_FILES } from '../../plugins/lifecycle/AccountExports';
import type { AccountImports } from '../../plugins/lifecycle/AccountImports';
import { IMPORT_KINDS } from '../../plugins/lifecycle/AccountImports';
import type { ModerationRoles } from '../../plugins/moderation/ModerationRoles';
import { badRequest } from '../../util/HttpErrors';
import { escapeHtml } from '../http/Html';
import { mediaTypeOf } from '../http/HttpUtil';
import { readMultipartText } from '../http/MultipartText';
import type { FormOutcome, PageForm, PageSession, PageState } from './SettingsPageHandler';
import { SettingsPageHandler } from './SettingsPageHandler';

/** Mastodon's own limit on an import file. */
const MAX_FORM_BYTES = 20 * 1024 * 1024;

const KIND_NAMES: Record<string, string> = { following: 'Follows', blocks: 'Blocked accounts', mutes: 'Muted accounts',
  bookmarks: 'Bookmarks', domain_blocks: 'Blocked domains' };

/**
 * `/auth/settings/export`: links to the user's CSV exports and archive, and a form that imports a
 * Mastodon CSV file (a multipart form: kind, mode, the file as `data`) through AccountImports, as
 * `POST /auth/import/<kind>` does.
 */
export class ExportImportPageHandler extends SettingsPageHandler {
  protected override readonly notices: Record<string, string> = {
    queued: 'Your file is being imported in the background; rows that cannot be imported are skipped.',
  };

  public constructor(baseUrl: string, tokens: TokenService, private readonly imports: AccountImports, roles?: ModerationRoles) {
    super(baseUrl, tokens, roles, false);
  }

  /** The form's fields, the file's text as `data`; URL-encoded forms as the base reads them. */
  protected override async readForm(request: IncomingMessage, session: PageSession): Promise<PageForm> {
    if (mediaTypeOf(request.headers['content-type']) !== 'multipart/form-data') {
      return super.readForm(request, session);
    }
    const fields = await readMultipartText(request, MAX_FORM_BYTES);
    return { fields, files: new Map(), discard: async(): Promise<void> => undefined };
  }

  protected async act(session: PageSession, form: PageForm): Promise<FormOutcome> {
    const data = form.fields.get('data') ?? '';
    if (data.trim() === '') {
      throw badRequest('Choose a CSV file to import.', 'missing_file');
    }
    await this.imports.start(session.username, form.fields.get('kind') ?? '', form.fields.get('mode') ?? 'merge', data);
    return { done: 'queued' };
  }

  protected async render(session: PageSession, state: PageState): Promise<{ title: string; body: string }> {
    const exports = EXPORT_FILES.map((file): string =>
      `<li><a href="${escapeHtml(`${this.base}auth/export/${file}`)}" download>${escapeHtml(file)}</a></li>`).join('');
    const kinds = IMPORT_KINDS.map((kind): string =>
      `<option value="${kind}"${state.form?.get('kind') === kind ? ' selected' : ''}>${escapeHtml(KIND_NAMES[kind])}</option>`).join('');
    return { title: 'Export and import', body: `<h1>Export and import</h1>
${this.message(state)}
<h2>Export</h2>
<p>Your lists as the CSV files Mastodon exports, and the archive of your posts and their media.</p>
<ul>${exports}<li><a href="${escapeHtml(`${this.base}auth/export/archive`)}" download>Your archive (tar)</a></li></ul>
<h2>Import</h2>
<p>A CSV file exported from Mastodon or another server. Merge adds to what you have; overwrite also removes what the file does not list.</p>
<form method="post" enctype="multipart/form-data">${this.csrf.field(session.token)}
<label for="kind">What the file holds</label><select id="kind" name="kind">${kinds}</select>
<fieldset><legend>Mode</legend>
<label><input type="radio" name="mode" value="merge"${state.form?.get('mode') === 'overwrite' ? '' : ' checked'}> Merge</label>
<label><input type="radio" name="mode" value="overwrite"${state.form?.get('mode') === 'overwrite' ? ' checked' : ''}> Overwrite</label>
</fieldset>
<label for="data">File</label><input id="data" name="data" type="file" accept=".csv,text/csv" required>
<button type="submit">Import</button>
</form>` };
  }
}
