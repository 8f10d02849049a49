import { parseCsv } from '../../../src/util/Csv';

describe('parseCsv', () => {
  it('reads quoted fields, doubled quotes and CRLF, skips blank lines and keeps each row\'s first line', () => {
    expect(parseCsv('a,"b, c"\r\n\r\n"say ""hi""",x\n"two\nlines",y\nlast')).toEqual([
      { line: 1, cells: [ 'a', 'b, c' ]},
      { line: 3, cells: [ 'say "hi"', 'x' ]},
      { line: 4, cells: [ 'two\nlines', 'y' ]},
      { line: 6, cells: [ 'last' ]},
    ]);
  });
});
