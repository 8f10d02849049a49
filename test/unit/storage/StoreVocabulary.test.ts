import { isAuxiliary, metadataGraphOf } from '../../../src/storage/StoreVocabulary';

describe('storage Vocabulary', (): void => {
  it.each([
    [ 'https://pod.example/.acl', true ],
    [ 'https://pod.example/notes/n1.acl', true ],
    [ 'https://pod.example/notes/n1.meta', true ],
    [ 'https://pod.example/notes/n1.aclx', false ],
    [ 'https://pod.example/notes/acl', false ],
    [ 'https://pod.example/notes/n1.acl/', false ],
    [ 'https://pod.example/notes/n1.acr', false ],
  ])('takes %s for an ACL or description document: %s', (iri, expected): void => {
    expect(isAuxiliary(iri)).toBe(expected);
  });

  it('names a resource\'s metadata graph as CSS\'s SPARQL accessor does', (): void => {
    expect(metadataGraphOf('https://pod.example/notes/n1')).toBe('meta:https://pod.example/notes/n1');
  });
});
