import { RemoteDocumentError, RemoteFetchError, SsrfBlockedError } from '../../../../../src/plugins/activitypub/fetch/FetchErrors';

describe('FetchErrors', (): void => {
  it('says whether a failed fetch may be retried, with its cause', (): void => {
    const timeout = new RemoteFetchError('timed out', true, 'ETIMEDOUT');
    expect(timeout).toMatchObject({ name: 'RemoteFetchError', message: 'timed out', retryable: true, code: 'ETIMEDOUT' });
    expect(new RemoteFetchError('failed', false).code).toBe('EFETCH');
  });

  it('makes a refused address a fetch error that is never retried', (): void => {
    const blocked = new SsrfBlockedError('loopback');
    expect(blocked).toBeInstanceOf(RemoteFetchError);
    expect(blocked).toMatchObject({ name: 'SsrfBlockedError', message: 'loopback', retryable: false, code: 'SSRF' });
  });

  it('keeps the URL and status of a document that is not what was asked for', (): void => {
    expect(new RemoteDocumentError('gone', 'https://remote.example/a', 410))
      .toMatchObject({ name: 'RemoteDocumentError', url: 'https://remote.example/a', status: 410 });
    expect(new RemoteDocumentError('not JSON', 'https://remote.example/b').status).toBeUndefined();
    expect(new RemoteDocumentError('x', 'y')).not.toBeInstanceOf(RemoteFetchError);
  });
});
