import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendError } from '../../../src/handlers/http/HttpUtil';
import { StoreUnavailableHttpError } from '../../../src/storage/StoreUnavailableHttpError';
import { serviceUnavailable } from '../../../src/util/HttpErrors';

/** What a client gets when a handler answers `error` with sendError. */
async function answerFor(error: unknown): Promise<{ status: number; retryAfter?: string; body: Record<string, unknown> }> {
  const server = http.createServer((_request, response): void => sendError(response, error));
  await new Promise<void>((resolve): void => {
    server.listen(0, '127.0.0.1', resolve);
  });
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`, { headers: { connection: 'close' } });
    return { status: response.status, retryAfter: response.headers.get('retry-after') ?? undefined,
      body: await response.json() as Record<string, unknown> };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve): void => {
      server.close((): void => resolve());
    });
  }
}

describe('sendError for dependencies that are away', (): void => {
  it('answers the store being unreachable with 503 store_unavailable and Retry-After, not a 500', async(): Promise<void> => {
    const answer = await answerFor(new StoreUnavailableHttpError('The triple store is not reachable (ECONNREFUSED).'));
    expect(answer).toEqual({ status: 503, retryAfter: '5',
      body: { error: 'store_unavailable', message: 'The triple store is not reachable (ECONNREFUSED).' } });
  });

  it('answers the queue being unreachable with 503 queue_unavailable', async(): Promise<void> => {
    const answer = await answerFor(serviceUnavailable('The job queue is not reachable.', 'queue_unavailable'));
    expect(answer).toEqual({ status: 503, retryAfter: '5', body: { error: 'queue_unavailable', message: 'The job queue is not reachable.' } });
  });

  it('still hides unexpected errors behind a plain 500', async(): Promise<void> => {
    const answer = await answerFor(new Error('secret detail'));
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ error: 'internal_error', message: 'The server could not complete the request.' });
  });
});
