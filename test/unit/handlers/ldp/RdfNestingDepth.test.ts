import { nestingDepthOver } from '../../../../src/handlers/ldp/RdfNestingDepth';

describe('nestingDepthOver', (): void => {
  it('counts nested collections, blank nodes and graphs', (): void => {
    expect(nestingDepthOver('<a:s> <a:p> ((( ))) .', 3)).toBe(false);
    expect(nestingDepthOver('<a:s> <a:p> (((( )))) .', 3)).toBe(true);
    expect(nestingDepthOver('<a:g> { <a:s> <a:p> [ <a:q> ( 1 ) ] }', 2)).toBe(true);
    expect(nestingDepthOver(`<a:s> <a:p> ${'( '.repeat(50_000)}${') '.repeat(50_000)}.`, 128)).toBe(true);
  });

  it('ignores brackets in strings (short and long, with escapes), IRIs and comments', (): void => {
    expect(nestingDepthOver('# ((((\n<a:s> <a:p> "((((" , \'[[[[\' , """{{{{ "" """ , \'\'\'(((\'\'\' , "\\"((((" .', 1)).toBe(false);
    expect(nestingDepthOver('<a:x((((> <a:p> <a:o> .', 1)).toBe(false);
    expect(nestingDepthOver('SELECT * WHERE { ?a ?p ?b FILTER(?a < ?b) }', 2)).toBe(false);
  });

  it('stops at an unterminated string without reading past the end', (): void => {
    expect(nestingDepthOver('<a:s> <a:p> "never closed ((((', 1)).toBe(false);
    expect(nestingDepthOver('<a:s> <a:p> """never closed ((((', 1)).toBe(false);
  });
});
