/**
 * The app's live updates (`/web/live`, Server-Sent Events) and the server's shutdown: an open stream
 * never finishes by itself, so the drain ends it at once rather than waiting out its timeout and
 * cutting the connection.
 */
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { signup } from '../../support/local-actors';

interface StreamEnd {
  /** How the response finished: `end` (its last chunk arrived) or `aborted` (the connection was cut). */
  how: 'end' | 'aborted';
  body: string;
}

describe('the web app\'s live updates at shutdown', () => {
  let server: FedpodServer | undefined;

  afterAll(async() => {
    await server?.stop();
  });

  it('ends an open /web/live stream as the server stops, instead of holding the drain open', async() => {
    server = await startFedpod({ config: 'activitypub' });
    const alice = await signup(server.baseUrl, 'alice');
    let opened!: () => void;
    const open = new Promise<void>((resolve): void => {
      opened = resolve;
    });
    const ended = new Promise<StreamEnd>((resolve, reject): void => {
      const request = http.get(`${server!.baseUrl}web/live`, { agent: false,
        headers: { accept: 'text/event-stream', cookie: `fedpod_web_session=${alice.token}` }}, (response): void => {
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toContain('text/event-stream');
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string): void => {
          body += chunk;
          if (body.includes(': live')) {
            opened();
          }
        });
        response.on('aborted', (): void => resolve({ how: 'aborted', body }));
        response.on('end', (): void => resolve({ how: 'end', body }));
      });
      request.on('error', reject);
    });
    await open;
    const stopped = server.stop();
    // Ended as a response ends (its last chunk), not cut when the drain's timeout ran out.
    expect(await ended).toEqual({ how: 'end', body: ': live\n\n' });
    await stopped;
    const log = readFileSync(server.logFile, 'utf8');
    expect(log).toContain('Stopped accepting connections');
    expect(log).not.toContain('still running after');
    server = undefined;
  }, 180_000);
});
