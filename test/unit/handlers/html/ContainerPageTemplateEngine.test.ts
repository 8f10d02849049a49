import { NOTE_FORM_FIELD } from '../../../../src/handlers/html/ContainerListing';
import { ContainerPageTemplateEngine } from '../../../../src/handlers/html/ContainerPageTemplateEngine';

describe('ContainerPageTemplateEngine', (): void => {
  const engine = new ContainerPageTemplateEngine();

  it('lists the members with links, containers marked with a slash, under the path to the container', async(): Promise<void> => {
    const page = await engine.handle({ contents: {
      identifier: 'https://pod.example/alice/notes/',
      name: 'notes',
      parents: [ { identifier: 'https://pod.example/', name: '' }, { identifier: 'https://pod.example/alice/', name: 'alice' } ],
      children: [ { identifier: 'https://pod.example/alice/notes/a', name: 'a' }, { identifier: 'https://pod.example/alice/notes/sub/', name: 'sub', container: true } ],
    }});
    expect(page.startsWith('# notes\n')).toBe(true);
    expect(page).toContain('<p class="meta"><a href="https://pod.example/">/</a> / <a href="https://pod.example/alice/">alice</a> / notes</p>');
    expect(page).toContain('<ul class="members"><li><a href="https://pod.example/alice/notes/a">a</a></li>' +
      '<li><a href="https://pod.example/alice/notes/sub/">sub/</a></li></ul>');
  });

  it('offers a form that posts a note to the container', async(): Promise<void> => {
    const page = await engine.handle({ contents: { identifier: 'https://pod.example/alice/', name: 'alice' }});
    expect(page).toContain('<form method="post" action="https://pod.example/alice/">');
    expect(page).toContain(`<input type="hidden" name="${NOTE_FORM_FIELD}" value="note">`);
    expect(page).toContain('name="content"');
    expect(page).toContain('<p class="meta">Empty.</p>');
  });

  it('escapes names and links no member that is not an http(s) URL', async(): Promise<void> => {
    const page = await engine.handle({ contents: { identifier: 'https://pod.example/x/', name: '<x>',
      children: [ { identifier: 'javascript:alert(1)', name: '<evil>' } ]}});
    expect(page.startsWith('# &lt;x&gt;\n')).toBe(true);
    expect(page).toContain('<li>&lt;evil&gt;</li>');
    expect(page).not.toContain('javascript:');
  });

  it('heads the page with the identifier when the container has no name', async(): Promise<void> => {
    const page = await engine.handle({ contents: { identifier: 'https://pod.example/' }});
    expect(page.startsWith('# https://pod.example/\n')).toBe(true);
  });
});
