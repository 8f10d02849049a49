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
    [ badRequest('m'), 400, 'bad_request', {}],
    [ badRequest('m', 'invalid_json'), 400, 'invalid_json', {}],
    [ unauthorized('m'), 401, 'unauthorized', { 'www-authenticate': 'Bearer' }],
    [ forbidden('m'), 403, 'forbidden', {}],
    [ notFound('m'), 404, 'not_found', {}],
    [ conflict('m'), 409, 'conflict', {}],
    [ preconditionFailed('m'), 412, 'precondition_failed', {}],
    [ payloadTooLarge('m'), 413, 'payload_too_large', {}],
    [ unsupportedMediaType('m'), 415, 'unsupported_media_type', {}],
    [ methodNotAllowed('m', 'GET, HEAD'), 405, 'method_not_allowed', { allow: 'GET, HEAD' }],
    [ serviceUnavailable('m'), 503, 'service_unavailable', { 'retry-after': '5' }],
    [ serviceUnavailable('m', 'queue_unavailable', 30), 503, 'queue_unavailable', { 'retry-after': '30' }],
  ])('makes %#: status %i, code %s, headers %j', (error, status, code, headers): void => {
    expect(error).toBeInstanceOf(FedpodHttpError);
    expect([ error.statusCode, error.errorCode, error.message, error.headers ]).toEqual([ status, code, 'm', headers ]);
  });
});
