/**
 * A Fedpod server with alice, bob and carol, each logged in to an app (`read write follow`) as
 * masto.js and megalodon clients, and a read-only app token of bob's: the refusals tests need one.
 */
import { createRestAPIClient, type mastodon } from 'masto';
import generator, { type MegalodonInterface } from 'megalodon';
import { eventually } from './eventually';
import { startFedpod, type FedpodServer } from './fedpod';
import { signup } from './local-actors';
import { appToken } from './mastodon-oauth';

export const USERS = [ 'alice', 'bob', 'carol' ] as const;
type User = typeof USERS[number];

export interface MastodonUsers {
  server: FedpodServer;
  /** The base URL without its final slash, as masto.js takes it. */
  url: string;
  tokens: Record<User, string>;
  masto: Record<User, mastodon.rest.Client>;
  megalodon: Record<User, MegalodonInterface>;
  /** A token of bob's with the `read` scope only. */
  readOnly: string;
  /** A request with a token (or none); a body is sent as JSON unless its content-type is given. */
  api: (path: string, token: string | undefined, init?: RequestInit) => Promise<{ status: number; body: unknown }>;
  /** Follows an account and waits until the follow is accepted: a local Follow's Accept goes through the queue. */
  follow: (follower: User, account: string) => Promise<void>;
}

export async function startWithUsers(): Promise<MastodonUsers> {
  const server = await startFedpod({ config: 'activitypub' });
  const url = server.baseUrl.replace(/\/$/u, '');
  const tokens = {} as Record<User, string>;
  const masto = {} as Record<User, mastodon.rest.Client>;
  const megalodon = {} as Record<User, MegalodonInterface>;
  // Side by side: each is a password hash and a few requests the server can overlap.
  await Promise.all(USERS.map(async(username) => {
    await signup(server.baseUrl, username);
    tokens[username] = await appToken(server.baseUrl, username, 'correct horse', 'read write follow');
    masto[username] = createRestAPIClient({ url, accessToken: tokens[username] });
    megalodon[username] = generator('mastodon', url, tokens[username]);
  }));
  const readOnly = await appToken(server.baseUrl, 'bob', 'correct horse', 'read');
  const api = async(path: string, token: string | undefined, init: RequestInit = {}): Promise<{ status: number; body: unknown }> => {
    const response = await fetch(`${url}${path}`, { ...init, headers: {
      ...token ? { authorization: `Bearer ${token}` } : {}, ...init.body ? { 'content-type': 'application/json' } : {}, ...init.headers }});
    return { status: response.status, body: await response.json() };
  };
  const follow = async(follower: User, account: string): Promise<void> => {
    await masto[follower].v1.accounts.$select(account).follow();
    await eventually(async() => (await masto[follower].v1.accounts.relationships.fetch({ id: [ account ]}))[0]?.following === true);
  };
  return { server, url, tokens, masto, megalodon, readOnly, api, follow };
}
