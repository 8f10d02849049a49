import type { IncomingMessage } from 'node:http';
import type { TokenService } from '../../plugins/accounts/TokenService';
import type { MastodonAccounts } from '../../plugins/mastodon/MastodonAccounts';
import type { MastodonProfiles } from '../../plugins/mastodon/MastodonProfiles';
import type { MediaStore } from '../../plugins/media/MediaStore';
import type { ModerationRoles } from '../../plugins/moderation/ModerationRoles';
import { badRequest } from '../../util/HttpErrors';
import { escapeHtml, isWebUrl } from '../http/Html';
import { mediaTypeOf } from '../http/HttpUtil';
import { updateProfile } from '../mastodon/MastodonCredentialsHandler';
import { readUpload } from '../media/MediaUpload';
import type { FormOutcome, PageForm, PageSession, PageState } from './SettingsPageHandler';
import { SettingsPageHandler } from './SettingsPageHandler';

/** Mastodon's number of profile fields. */
const FIELDS = 4;

/** The plain text of the HTML a profile's note or field holds (as plainTextToHtml wrote it), for editing. */
export function htmlToPlainText(html: string): string {
  return html.replaceAll(/<br\s*\/?>/giu, '\n').replaceAll(/<\/p>\s*<p[^>]*>/giu, '\n\n').replaceAll(/<[^>]*>/gu, '')
    .replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&#39;', '\'')
    .replaceAll('&amp;', '&');
}

/**
 * `/auth/settings/profile`: the user edits their display name, bio, up to four fields, avatar and
 * header (a multipart form), locked and discoverable. The change goes the way of the Mastodon API's
 * update_credentials (the same checks, the images stored as uploads, one Update of the actor through
 * the outbox, delivered to the followers).
 */
export class ProfileSettingsPageHandler extends SettingsPageHandler {
  protected override readonly notices: Record<string, string> = { saved: 'Your profile is saved.' };

  public constructor(
    baseUrl: string,
    tokens: TokenService,
    private readonly profiles: MastodonProfiles,
    private readonly accounts: MastodonAccounts,
    private readonly media: MediaStore,
    roles?: ModerationRoles,
  ) {
    super(baseUrl, tokens, roles, false);
  }

  protected override async readForm(request: IncomingMessage, session: PageSession): Promise<PageForm> {
    if (mediaTypeOf(request.headers['content-type']) !== 'multipart/form-data') {
      return super.readForm(request, session);
    }
    const { fields, files } = await readUpload(request, this.media, session.username, [ 'avatar', 'header' ], { skipUnnamed: true });
    return { fields, files, discard: async(): Promise<void> => {
      await Promise.all([ ...files.values() ].map(async(received): Promise<void> => this.media.discard(received)));
      files.clear();
    } };
  }

  protected async act(session: PageSession, form: PageForm): Promise<FormOutcome> {
    if (form.fields.has('locked') === false || form.fields.has('display_name') === false) {
      throw badRequest('Send the whole profile form.', 'invalid_form');
    }
    const params = Object.fromEntries(form.fields);
    delete params.csrf;
    // From here on the uploads are updateProfile's: it discards them itself when it refuses them.
    const files = new Map(form.files);
    form.files.clear();
    await updateProfile(this.profiles, this.media, session.username, params, files);
    return { done: 'saved' };
  }

  protected async render(session: PageSession, state: PageState): Promise<{ title: string; body: string }> {
    const account = await this.accounts.accountOf(this.accounts.urls.actor(session.username));
    const typed = state.form;
    const value = (name: string, current: string): string => escapeHtml(typed?.get(name) ?? current);
    const checked = (name: string, current: boolean): string =>
      (typed ? [ 'true', 'on', '1' ].includes(typed.get(name) ?? '') : current) ? ' checked' : '';
    const fields = Array.from({ length: FIELDS }, (_, index): string => {
      const field = account.fields[index];
      const name = `fields_attributes[${index}][name]`;
      const text = `fields_attributes[${index}][value]`;
      return `<fieldset class="field"><legend>Field ${index + 1}</legend>
<label for="field-${index}-name">Label</label><input id="field-${index}-name" name="${name}" maxlength="255" value="${value(name, htmlToPlainText(field?.name ?? ''))}">
<label for="field-${index}-value">Content</label><input id="field-${index}-value" name="${text}" maxlength="255" value="${value(text, htmlToPlainText(field?.value ?? ''))}">
</fieldset>`;
    }).join('\n');
    const picture = (url: string, alt: string): string => isWebUrl(url) && !url.endsWith('/favicon.ico') ?
      `<img class="avatar" src="${escapeHtml(url)}" alt="${escapeHtml(alt)}">` : '';
    return { title: 'Profile', body: `<h1>Profile</h1>
${this.message(state)}
<p>What others see of <a href="${escapeHtml(session.webId)}">@${escapeHtml(session.username)}</a>. A change is sent to your followers.</p>
<form method="post" enctype="multipart/form-data">${this.csrf.field(session.token)}
<label for="display_name">Display name</label><input id="display_name" name="display_name" maxlength="30" value="${value('display_name', account.display_name)}">
<label for="note">Bio</label><textarea id="note" name="note" rows="5" maxlength="500">${value('note', htmlToPlainText(account.note))}</textarea>
${fields}
<div class="picture">${picture(account.avatar, 'Your current avatar')}
<label for="avatar">Avatar (an image)</label><input id="avatar" name="avatar" type="file" accept="image/*"></div>
<div class="picture">${picture(account.header, 'Your current header')}
<label for="header">Header (an image)</label><input id="header" name="header" type="file" accept="image/*"></div>
<input type="hidden" name="locked" value="false">
<label class="check"><input id="locked" name="locked" type="checkbox" value="true"${checked('locked', account.locked)}> Approve followers yourself (locked account)</label>
<input type="hidden" name="discoverable" value="false">
<label class="check"><input id="discoverable" name="discoverable" type="checkbox" value="true"${checked('discoverable', account.discoverable)}> List this account in the server's directory (discoverable)</label>
<button type="submit">Save profile</button>
</form>` };
  }
}
