/** Accounts on a running Fedpod and what their owners do over HTTP: sign up, post to the outbox, read. */
import { itemIds } from './collections';

export interface Session { token: string; webId: string }

export interface Answer { status: number; body: Record<string, unknown> }

export async function signup(baseUrl: string, username: string): Promise<Session> {
  const response = await fetch(`${baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: 'correct horse' }) });
  if (response.status !== 201) {
    throw new Error(`signup of ${username} answered ${response.status}: ${await response.text()}`);
  }
  return await response.json() as Session;
}

/** POSTs an activity (or a bare object) to the session's outbox. */
export async function postToOutbox(session: Session, activity: unknown): Promise<Answer> {
  const response = await fetch(`${session.webId}/outbox`, { method: 'POST', body: JSON.stringify(activity),
    headers: { 'content-type': 'application/activity+json', authorization: `Bearer ${session.token}` } });
  return { status: response.status, body: await response.json() as Record<string, unknown> };
}

/** A document as ActivityStreams JSON, read with the session's token when one is given. */
export async function readJson(url: string, session?: Session): Promise<Answer> {
  const response = await fetch(url, { headers: { accept: 'application/activity+json',
    ...session ? { authorization: `Bearer ${session.token}` } : {} } });
  return { status: response.status, body: await response.json() as Record<string, unknown> };
}

/** The item ids of a collection's first page, read as the session (anonymously without one). */
export async function pageItemIds(collection: string, session?: Session): Promise<string[]> {
  return itemIds((await readJson(`${collection}?page=true`, session)).body as { orderedItems: unknown });
}
