import { consentPage, loginPage, messagePage } from '../../../../src/handlers/auth/LoginPages';

describe('LoginPages', (): void => {
  const app = { name: '<script>alert(1)</script>', clientId: 'https://app.example/id"onload="x', redirectUri: 'https://app.example/cb?x=<y>' };

  it('escapes everything the app chooses (its name, id and redirect)', (): void => {
    const html = loginPage(app, 'Wrong <b>password</b>', '"><img src=x>');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('https://app.example/id&quot;onload=&quot;x');
    expect(html).toContain('https://app.example</span>');
    expect(html).toContain('Wrong &lt;b&gt;password&lt;/b&gt;');
    expect(html).toContain('value="&quot;&gt;&lt;img src=x&gt;"');
    expect(consentPage(app, 'https://pod.example/actors/<a>')).toContain('https://pod.example/actors/&lt;a&gt;');
  });

  it('builds a login form with labelled fields and a consent form with allow and deny', (): void => {
    const login = loginPage({ name: 'Notes', clientId: 'notes' });
    expect(login).toContain('<label for="login">');
    expect(login).toContain('autocomplete="current-password"');
    expect(login).toContain('name="action" value="login"');
    expect(login).toContain('name="action" value="cancel"');
    const consent = consentPage({ name: 'Notes', clientId: 'notes' }, 'https://pod.example/actors/alice');
    expect(consent).toContain('name="action" value="consent"');
    expect(consent).toContain('>Deny<');
    expect(messagePage('Gone', 'a & b')).toContain('<p>a &amp; b</p>');
  });
});
