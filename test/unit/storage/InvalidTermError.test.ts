import type { ServerResponse } from 'node:http';
import { BadRequestHttpError, HttpError } from '@solid/community-server';
import { DataFactory } from 'n3';
import { sendError } from '../../../src/handlers/http/HttpUtil';
import { InvalidTermError, sparqlTerm } from '../../../src/storage/SparqlTerms';

describe('InvalidTermError', () => {
  it('is a 400 that CSS recognises, so an IRI that cannot be written is a bad request, not a 500', () => {
    let error: unknown;
    try {
      sparqlTerm(DataFactory.namedNode('http://example.org/a> } ; DROP ALL ; {'));
    } catch (caught: unknown) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidTermError);
    expect(HttpError.isInstance(error)).toBe(true);
    expect(BadRequestHttpError.isInstance(error)).toBe(true);
    expect((error as HttpError).statusCode).toBe(400);
  });

  it('is answered by Fedpod\'s JSON handlers as 400 {error, message}', () => {
    const writeHead = jest.fn();
    const end = jest.fn();
    const response = { headersSent: false, writeHead, end } as unknown as ServerResponse;
    sendError(response, new InvalidTermError('Not a valid absolute IRI: "a b"'));
    expect(writeHead).toHaveBeenCalledWith(400, expect.objectContaining({ 'content-type': 'application/json; charset=utf-8' }));
    expect(JSON.parse(end.mock.calls[0][0] as string)).toEqual({ error: 'invalid_term', message: 'Not a valid absolute IRI: "a b"' });
  });
});
