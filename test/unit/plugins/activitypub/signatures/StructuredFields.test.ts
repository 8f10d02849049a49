import {
  parseDictionary,
  parseItem,
  serializeDictionary,
  serializeItem,
  StructuredFieldError,
} from '../../../../../src/plugins/activitypub/signatures/StructuredFields';

describe('StructuredFields', () => {
  it('parses and re-serializes dictionaries canonically', () => {
    const input = 'sig1=("@method"   "@target-uri" "x";key="a");created=1618884473;keyid="a\\"b\\\\c";alg=token/x, b, c=?0,\td=:AQID:;p=-1.5';
    const dict = parseDictionary(input);
    expect([ ...dict.keys() ]).toEqual([ 'sig1', 'b', 'c', 'd' ]);
    expect(serializeDictionary(dict)).toBe(
      'sig1=("@method" "@target-uri" "x";key="a");created=1618884473;keyid="a\\"b\\\\c";alg=token/x, b, c=?0, d=:AQID:;p=-1.5',
    );
    const d = dict.get('d')!;
    expect('value' in d && d.value.type === 'binary' && [ ...d.value.value ]).toEqual([ 1, 2, 3 ]);
  });

  it('serializes items and parameters', () => {
    expect(serializeItem(parseItem('  "a b";x;y=1.0 '))).toBe('"a b";x;y=1.0');
    expect(serializeItem(parseItem('12.125'))).toBe('12.125');
  });

  it.each([
    'a=',
    'a=1,',
    'A=1',
    'a=(1 2',
    'a=(1,2)',
    'a="unterminated',
    'a="bad\\escape"',
    'a=:not base64:',
    'a=1234567890123456',
    'a=1.2345',
    'a=1.',
    'a=?2',
    'a=1 b=2',
    'a=é',
  ])('refuses %j', (input) => {
    expect(() => parseDictionary(input)).toThrow(StructuredFieldError);
  });
});
