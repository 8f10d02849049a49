import { RepresentationMetadata } from '@solid/community-server';
import { badRequest, conflict, FedpodHttpError, forbidden, methodNotAllowed, notFound, payloadTooLarge, preconditionFailed,
  serviceUnavailable, unauthorized, unsupportedMediaType } from '../../../src/util/HttpErrors';

describe('HttpErrors', (): void => {
  it('carries a status, a code, a message, headers and more body members', (): void => {
    const error = new FedpodHttpError(422, 'odd', 'Something odd.', { 'x-a': '1' }, { allowed: [ 'x' ]});
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('FedpodHttpError');
    expect([ error.statusCode, error.errorCode, error.message, error.headers, error.details ])
      .toEqual([ 422, 'odd', 'Something odd.', { 'x-a': '1' }, { allowed: [ 'x' ]}]);
  });

  it('has CSS metadata, made once, so CSS\'s pipeline answers it with its own status', (): void => {
    const error = badRequest('x');
    expect(error.metadata).toBeInstanceOf(RepresentationMetadata);
    expect(error.metadata).toBe(error.metadata);
  });

  it.each([
    [ 400, 'bad_request', {}, badRequest('m') ],
    [ 400, 'invalid_json', {}, badRequest('m', 'invalid_json') ],
    [ 401, 'unauthorized', { 'www-authenticate': 'Bearer' }, unauthorized('m') ],
    [ 403, 'forbidden', {}, forbidden('m') ],
    [ 404, 'not_found', {}, notFound('m') ],
    [ 409, 'conflict', {}, conflict('m') ],
    [ 412, 'precondition_failed', {}, preconditionFailed('m') ],
    [ 413, 'payload_too_large', {}, payloadTooLarge('m') ],
    [ 415, 'unsupported_media_type', {}, unsupportedMediaType('m') ],
    [ 405, 'method_not_allowed', { allow: 'GET, HEAD' }, methodNotAllowed('m', 'GET, HEAD') ],
    [ 503, 'service_unavailable', { 'retry-after': '5' }, serviceUnavailable('m') ],
    [ 503, 'queue_unavailable', { 'retry-after': '30' }, serviceUnavailable('m', 'queue_unavailable', 30) ],
  ])('makes a %i %s error, with the headers %j', (status, code, headers, error): void => {
    expect(error).toBeInstanceOf(FedpodHttpError);
    expect([ error.statusCode, error.errorCode, error.message, error.headers ]).toEqual([ status, code, 'm', headers ]);
  });
});
