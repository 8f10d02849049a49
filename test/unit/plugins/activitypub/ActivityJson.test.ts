import { idOf, idsOf, isObject, typeOf, withoutBlindCopies, withStorableIds } from '../../../../src/plugins/activitypub/ActivityJson';

const NOTE = 'https://pod.example/objects/1';

describe('ActivityJson', (): void => {
  describe('idOf', (): void => {
    it('returns a string as is and the id of an object', (): void => {
      expect(idOf(NOTE)).toBe(NOTE);
      expect(idOf({ id: NOTE, type: 'Note' })).toBe(NOTE);
      expect(idOf('')).toBe('');
    });

    it.each([
      [ 'undefined', undefined ],
      [ 'null', null ],
      [ 'a number', 42 ],
      [ 'a boolean', true ],
      [ 'an object without id', { type: 'Note' }],
      [ 'an object with a non-string id', { id: 42 }],
      [ 'an object with an object id', { id: { id: NOTE }}],
      [ 'an object with @id only', { '@id': NOTE }],
      [ 'an array', [ NOTE ]],
      [ 'an array with an id property', Object.assign([ NOTE ], { id: NOTE }) ],
    ])('is undefined for %s', (_, value): void => {
      expect(idOf(value)).toBeUndefined();
    });
  });

  describe('idsOf', (): void => {
    it('reads one value or an array of values, in order', (): void => {
      expect(idsOf(NOTE)).toEqual([ NOTE ]);
      expect(idsOf({ id: NOTE })).toEqual([ NOTE ]);
      expect(idsOf([ 'https://a.example/1', { id: 'https://a.example/2' }, 'https://a.example/3' ]))
        .toEqual([ 'https://a.example/1', 'https://a.example/2', 'https://a.example/3' ]);
    });

    it('drops values without an id', (): void => {
      expect(idsOf([ NOTE, null, 42, { type: 'Note' }, { id: 7 }, [ 'nested' ], { id: 'https://a.example/2' }]))
        .toEqual([ NOTE, 'https://a.example/2' ]);
    });

    it('is empty for nothing', (): void => {
      expect(idsOf(undefined)).toEqual([]);
      expect(idsOf(null)).toEqual([]);
      expect(idsOf([])).toEqual([]);
      expect(idsOf({ type: 'Note' })).toEqual([]);
      expect(idsOf(42)).toEqual([]);
    });
  });

  describe('typeOf', (): void => {
    it('reads a string type, or the first of an array of types', (): void => {
      expect(typeOf({ type: 'Create' })).toBe('Create');
      expect(typeOf({ type: [ 'Note', 'Article' ]})).toBe('Note');
    });

    it.each([
      [ 'undefined', undefined ],
      [ 'null', null ],
      [ 'a string', 'Create' ],
      [ 'an array', [ 'Create' ]],
      [ 'an object without type', { id: NOTE }],
      [ 'a numeric type', { type: 3 }],
      [ 'an empty array of types', { type: []}],
      [ 'an array whose first type is not a string', { type: [ 3, 'Note' ]}],
      [ 'an object type', { type: { id: 'Note' }}],
    ])('is undefined for %s', (_, value): void => {
      expect(typeOf(value)).toBeUndefined();
    });
  });

  describe('isObject', (): void => {
    it('is true for plain objects only', (): void => {
      expect(isObject({})).toBe(true);
      expect(isObject({ id: NOTE })).toBe(true);
      for (const value of [ undefined, null, 0, 1, '', 'x', true, false, [], [ {} ]]) {
        expect(isObject(value)).toBe(false);
      }
    });
  });

  describe('withoutBlindCopies', (): void => {
    it('drops bto and bcc from the activity and from the object it embeds, and keeps the rest', (): void => {
      const activity = { id: 'a', type: 'Create', to: 'x', bto: 'y', bcc: [ 'z' ],
        object: { id: NOTE, type: 'Note', cc: 'c', bcc: 'z', bto: 'y' }};
      expect(withoutBlindCopies(activity)).toEqual({ id: 'a', type: 'Create', to: 'x', object: { id: NOTE, type: 'Note', cc: 'c' }});
    });

    it('leaves an object given by reference alone', (): void => {
      expect(withoutBlindCopies({ type: 'Like', object: NOTE, bcc: 'z' })).toEqual({ type: 'Like', object: NOTE });
    });
  });

  describe('withStorableIds', (): void => {
    it('drops null ids at any depth and repairs ids a store would refuse, keeping everything else', (): void => {
      const activity = { id: 'https://blog.example/p/#activity#activity', type: 'Announce', actor: 'https://blog.example/author',
        object: { id: 'https://blog.example/p/', attachment: [ { id: null, type: 'Image', url: 'https://blog.example/i.png' } ],
          tag: { '@id': null, name: '#x' } } };
      withStorableIds(activity);
      expect(activity).toEqual({ id: 'https://blog.example/p/#activity%23activity', type: 'Announce', actor: 'https://blog.example/author',
        object: { id: 'https://blog.example/p/', attachment: [ { type: 'Image', url: 'https://blog.example/i.png' } ], tag: { name: '#x' } } });
    });
  });
});
