import { bareMediaType, fileContentType, withCharset } from '../../../src/util/ContentTypes';

describe('ContentTypes', (): void => {
  describe('fileContentType', (): void => {
    it('keeps the charset the client named, lowercased, and drops other parameters', (): void => {
      expect(fileContentType('text/html; charset=UTF-8', 'text/html')).toBe('text/html; charset=utf-8');
      expect(fileContentType('text/plain;format=flowed; CHARSET="ISO-8859-1"', 'text/plain')).toBe('text/plain; charset=iso-8859-1');
      expect(fileContentType('image/png; name=x', 'image/png')).toBe('image/png');
    });

    it('gives the bare media type without a header', (): void => {
      expect(fileContentType(undefined, 'application/octet-stream')).toBe('application/octet-stream');
    });
  });

  describe('withCharset', (): void => {
    it('adds a lowercased charset, or none', (): void => {
      expect(withCharset('text/csv', 'UTF-8')).toBe('text/csv; charset=utf-8');
      expect(withCharset('text/csv')).toBe('text/csv');
      expect(withCharset('text/csv', '')).toBe('text/csv');
    });
  });

  describe('bareMediaType', (): void => {
    it('strips parameters and spaces and lowercases', (): void => {
      expect(bareMediaType(' Text/HTML ; charset=utf-8')).toBe('text/html');
      expect(bareMediaType('image/png')).toBe('image/png');
    });
  });
});
