import { htmlToPlainText } from '../../../../src/handlers/settings/ProfileSettingsPageHandler';
import { plainTextToHtml } from '../../../../src/plugins/mastodon/StatusText';

describe('htmlToPlainText', (): void => {
  it('gives back the text a profile\'s note was typed as', (): void => {
    for (const text of [ 'One line.', 'Two\nlines.', 'Para one.\n\nPara two, with <b>tags</b> & "quotes" \'too\'.', 'A link: https://bob.example/x' ]) {
      expect(htmlToPlainText(plainTextToHtml(text))).toBe(text);
    }
  });

  it('keeps an escaped entity as the text it shows', (): void => {
    expect(htmlToPlainText('<p>&amp;lt;</p>')).toBe('&lt;');
  });
});
