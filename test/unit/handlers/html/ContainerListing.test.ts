import { containerListing, nameOf, parentsOf, readerMayAppend } from '../../../../src/handlers/html/ContainerListing';

const ROOT = 'https://pod.example/';

describe('ContainerListing', (): void => {
  it('names a resource by its last path segment, decoded, and the root by nothing', (): void => {
    expect(nameOf(`${ROOT}notes/a%20b`, ROOT)).toBe('a b');
    expect(nameOf(`${ROOT}notes/shelf/`, ROOT)).toBe('shelf');
    expect(nameOf(ROOT, ROOT)).toBe('');
  });

  it('lists the containers above a container, the root first', (): void => {
    expect(parentsOf(`${ROOT}notes/shelf/`, ROOT)).toEqual([
      { identifier: ROOT, name: '', container: true },
      { identifier: `${ROOT}notes/`, name: 'notes', container: true },
    ]);
    expect(parentsOf(ROOT, ROOT)).toEqual([]);
  });

  it('escapes names and links, links the next page, and offers the note form only when asked', (): void => {
    const html = containerListing({
      identifier: `${ROOT}notes/`,
      name: 'notes',
      parents: [{ identifier: ROOT, name: '' }],
      members: [{ identifier: `${ROOT}notes/<b>`, name: '<b>' }, { identifier: 'javascript:alert(1)', name: 'x', container: true }],
      next: `${ROOT}notes/?after=abc&x=1`,
      noteForm: false,
    });
    expect(html).toContain('<a href="https://pod.example/notes/&lt;b&gt;">&lt;b&gt;</a>');
    expect(html).toContain('<li>x/</li>');
    expect(html).toContain('<a rel="next" href="https://pod.example/notes/?after=abc&amp;x=1">Older members</a>');
    expect(html).not.toContain('<form');
    expect(containerListing({ identifier: `${ROOT}notes/`, name: 'notes', parents: [], members: [], noteForm: true }))
      .toMatch(/Empty\.[\s\S]*<form method="post" action="https:\/\/pod\.example\/notes\/">/u);
  });

  it('offers the note form only to a reader whose WAC-Allow lets them add, or where the policy says nothing', (): void => {
    expect(readerMayAppend('user="read",public="read"')).toBe(false);
    expect(readerMayAppend('user="read append",public="read"')).toBe(true);
    expect(readerMayAppend('user="read write",public=""')).toBe(true);
    expect(readerMayAppend('user="",public="read append"')).toBe(false);
    expect(readerMayAppend(undefined)).toBe(true);
  });
});
