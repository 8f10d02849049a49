import { jsonDepthOver, MAX_JSON_DEPTH, parseJsonText } from '../../../src/util/JsonText';
import { deepJsonText } from '../../support/deepJson';

describe('jsonDepthOver', (): void => {
  it('counts nested arrays and objects, not brackets inside strings', (): void => {
    expect(jsonDepthOver('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(jsonDepthOver('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(jsonDepthOver(`{"s":"${'['.repeat(500)}"}`, 2)).toBe(false);
    // An escaped quote does not end the string.
    expect(jsonDepthOver(`{"s":"\\"${'{'.repeat(500)}"}`, 2)).toBe(false);
    expect(jsonDepthOver('"\\\\"', 0)).toBe(false);
  });

  it('measures the deepest point, not the sum', (): void => {
    expect(jsonDepthOver(Array.from({ length: 100 }, (): string => '[[1]]').join(','), 2)).toBe(false);
  });
});

describe('parseJsonText', (): void => {
  it(`parses JSON up to ${MAX_JSON_DEPTH} levels deep`, (): void => {
    expect(parseJsonText('{"a":[1,"]"]}')).toEqual({ a: [ 1, ']' ]});
    expect(parseJsonText(deepJsonText(MAX_JSON_DEPTH))).toBeDefined();
  });

  it('refuses deeper JSON with 400 too_deeply_nested, before parsing it', (): void => {
    for (const text of [ deepJsonText(MAX_JSON_DEPTH + 1), deepJsonText(100_000), `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}` ]) {
      expect((): unknown => parseJsonText(text)).toThrow(expect.objectContaining({ statusCode: 400, errorCode: 'too_deeply_nested' }));
    }
    expect((): unknown => parseJsonText(deepJsonText(5), 4)).toThrow(expect.objectContaining({ errorCode: 'too_deeply_nested' }));
  });

  it('refuses text that is not JSON with 400 invalid_json, with the reason when asked', (): void => {
    expect((): unknown => parseJsonText('{nope')).toThrow(expect.objectContaining({ statusCode: 400, errorCode: 'invalid_json',
      message: 'The body is not valid JSON.' }));
    expect((): unknown => parseJsonText('{nope', MAX_JSON_DEPTH, true)).toThrow(/not valid JSON: .+/u);
  });
});
