/**
 * What the fault tests do to Fedpod, as a client would: sign up, make a container and a webhook,
 * and the three kinds of acknowledged write they load it with (LDP POST 201, outbox POST 201,
 * webhook POST 202), each carrying a unique marker so it can be found again afterwards.
 */
import { request, type Answer } from './http';

export interface Session { token: string; webId: string }

/** One write attempt: its answer, and `ref` (Location or job id) when it was acknowledged. */
export interface Outcome {
  status: number;
  ref?: string;
  body: string;
}

export type Operation = (marker: string) => Promise<Outcome>;

const JSON_LD = 'application/ld+json';

function expectStatus(answer: Answer, status: number, what: string): void {
  if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.body.slice(0, 300)}`);
}

export async function signup(baseUrl: string, username: string): Promise<Session> {
  const answer = await request(`${baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: 'correct horse battery' }) });
  expectStatus(answer, 201, `signup ${username}`);
  return JSON.parse(answer.body) as Session;
}

/** PUT of an empty basic container; returns its URL (with the trailing slash). */
export async function createContainer(baseUrl: string, name: string): Promise<string> {
  const url = `${baseUrl}${name}/`;
  const answer = await request(url, { method: 'PUT',
    headers: { 'content-type': 'text/turtle', link: '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"' }, body: '' });
  if (answer.status !== 201 && answer.status !== 205 && answer.status !== 204) {
    throw new Error(`PUT ${url}: ${answer.status} ${answer.body.slice(0, 300)}`);
  }
  return url;
}

/** A store-in-container webhook of the session's user; returns its URI. */
export async function storeWebhook(baseUrl: string, session: Session): Promise<string> {
  const answer = await request(`${baseUrl}webhooks`, { method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
    body: JSON.stringify({ action: 'store-in-container' }) });
  expectStatus(answer, 201, 'webhook generation');
  return answer.headers.location as string;
}

export function ldpPost(containerUrl: string): Operation {
  return async(marker) => {
    const answer = await request(containerUrl, { method: 'POST', headers: { 'content-type': JSON_LD },
      body: JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', type: 'Note', name: marker, content: `note ${marker}` }) });
    const location = answer.headers.location;
    return { status: answer.status, body: answer.body, ref: answer.status === 201 && typeof location === 'string' ? location : undefined };
  };
}

export function outboxPost(session: Session): Operation {
  return async(marker) => {
    const answer = await request(`${session.webId}/outbox`, { method: 'POST',
      headers: { 'content-type': JSON_LD, authorization: `Bearer ${session.token}` },
      body: JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', type: 'Note', content: `post ${marker}`,
        to: [ 'https://www.w3.org/ns/activitystreams#Public' ] }) });
    const location = answer.headers.location;
    return { status: answer.status, body: answer.body, ref: answer.status === 201 && typeof location === 'string' ? location : undefined };
  };
}

export function webhookPost(uri: string): Operation {
  return async(marker) => {
    const answer = await request(uri, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ marker }) });
    let job: string | undefined;
    if (answer.status === 202) job = (JSON.parse(answer.body) as { job?: string }).job;
    return { status: answer.status, body: answer.body, ref: job };
  };
}

/** GET as JSON-LD; the answer whatever its status. */
export function readJsonLd(url: string, token?: string): Promise<Answer> {
  return request(url, { headers: { accept: JSON_LD, ...token === undefined ? {} : { authorization: `Bearer ${token}` } } });
}

/** The text of the user's webhook data container (payloads embedded), '' while it does not exist. */
export async function webhookDataText(baseUrl: string, session: Session, username: string): Promise<string> {
  const answer = await readJsonLd(`${baseUrl}webhook-data/${username}/`, session.token);
  if (answer.status === 404) return '';
  expectStatus(answer, 200, 'webhook data container');
  return answer.body;
}
