/**
 * Users of Fedpod instances behind their HTTPS proxies (the test CA's), for federation tests: two
 * instances started side by side, a signup, and a post to a user's outbox.
 */
import { startHttpsFedpod, type HttpsFedpod } from './https-proxy';
import { httpsRequest, type TlsFiles } from './tls';

export interface HttpsSession { token: string; webId: string }

/** Two instances of the ActivityPub setup, started side by side; neither is left running when one fails. */
export async function startHttpsFedpodPair(tls: TlsFiles): Promise<[HttpsFedpod, HttpsFedpod]> {
  const started = await Promise.allSettled([
    startHttpsFedpod({ config: 'activitypub', tls }),
    startHttpsFedpod({ config: 'activitypub', tls }),
  ]);
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await Promise.allSettled(started.map(async(result) => result.status === 'fulfilled' ? result.value.stop() : undefined));
    throw (failed as PromiseRejectedResult).reason;
  }
  return started.map((result) => (result as PromiseFulfilledResult<HttpsFedpod>).value) as [HttpsFedpod, HttpsFedpod];
}

export async function httpsSignup(server: HttpsFedpod, username: string): Promise<HttpsSession> {
  const answer = await httpsRequest(`${server.baseUrl}auth/signup`, { method: 'POST',
    body: { username, email: `${username}@example.com`, password: 'correct horse' }});
  expect(answer.status).toBe(201);
  return answer.json<HttpsSession>();
}

/** Posts an activity (or an object, wrapped in a Create) to the user's outbox; expects 201. */
export async function httpsOutbox(session: HttpsSession, activity: Record<string, unknown>): Promise<void> {
  const answer = await httpsRequest(`${session.webId}/outbox`, { method: 'POST', body: JSON.stringify(activity),
    headers: { 'content-type': 'application/activity+json', authorization: `Bearer ${session.token}` }});
  expect(answer.status).toBe(201);
}
