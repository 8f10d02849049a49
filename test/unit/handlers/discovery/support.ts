import type { HttpHandler, HttpRequest, HttpResponse } from '@solid/community-server';
import { NOT_HANDLED } from '../../../../src/handlers/NotHandled';
import type { Account } from '../../../../src/plugins/accounts/Account';
import type { AccountStore } from '../../../../src/plugins/accounts/AccountStore';

/** A tiny AccountStore kept in a Map; counts list() calls and can be told to fail the next one. */
export class InMemoryAccountStoreFake implements AccountStore {
  private readonly accounts = new Map<string, Account>();
  public listCalls = 0;
  public failNextList = false;

  public constructor(baseUrl: string, usernames: string[] = []) {
    for (const username of usernames) {
      this.add(baseUrl, username);
    }
  }

  public add(baseUrl: string, username: string): void {
    this.accounts.set(username, {
      username,
      email: `${username}@mail.example`,
      webId: `${baseUrl}actors/${username}`,
      passwordHash: 'not-a-hash',
      created: '2024-01-01T00:00:00.000Z',
    });
  }

  public async create(account: Account): Promise<{ created: true } | { created: false; taken: 'username' | 'email' }> {
    if (this.accounts.has(account.username)) {
      return { created: false, taken: 'username' };
    }
    if ([ ...this.accounts.values() ].some((known): boolean => known.email === account.email)) {
      return { created: false, taken: 'email' };
    }
    this.accounts.set(account.username, account);
    return { created: true };
  }

  public async findByUsername(username: string): Promise<Account | undefined> {
    return this.accounts.get(username);
  }

  public async findByEmail(email: string): Promise<Account | undefined> {
    return [ ...this.accounts.values() ].find((account): boolean => account.email === email);
  }

  public async remove(username: string): Promise<void> {
    this.accounts.delete(username);
  }

  public async list(): Promise<string[]> {
    this.listCalls += 1;
    if (this.failNextList) {
      this.failNextList = false;
      throw new Error('disk on fire');
    }
    return [ ...this.accounts.keys() ];
  }
}

/** Records what a handler writes, merging setHeader() headers into writeHead() as node does. */
export class FakeResponse {
  public statusCode = 200;
  public headersSent = false;
  public headers: Record<string, string | number | string[]> = {};
  public body = '';
  public ended = false;
  private readonly pending = new Map<string, string | number | string[]>();

  public setHeader(name: string, value: string | number | string[]): this {
    this.pending.set(name.toLowerCase(), value);
    return this;
  }

  public getHeader(name: string): string | number | string[] | undefined {
    return this.pending.get(name.toLowerCase());
  }

  public hasHeader(name: string): boolean {
    return this.pending.has(name.toLowerCase());
  }

  public removeHeader(name: string): void {
    this.pending.delete(name.toLowerCase());
  }

  public writeHead(status: number, headers: Record<string, string | number | string[]> = {}): this {
    this.statusCode = status;
    this.headers = Object.fromEntries(this.pending);
    for (const [ name, value ] of Object.entries(headers)) {
      this.headers[name.toLowerCase()] = value;
    }
    this.headersSent = true;
    return this;
  }

  public end(chunk?: string | Buffer): this {
    if (chunk !== undefined) {
      this.body += chunk.toString();
    }
    this.ended = true;
    return this;
  }

  public destroy(): void {
    this.ended = true;
  }
}

export interface Reply {
  status: number;
  headers: Record<string, string | number | string[]>;
  body: string;
  json: () => Record<string, unknown>;
}

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Headers set before the handler runs (as CSS's middleware does). */
  preset?: Record<string, string>;
}

/** Offers one request to the handler: undefined when it refuses (with the shared NOT_HANDLED), else the reply. */
export async function call(handler: HttpHandler, url: string, options: CallOptions = {}): Promise<Reply | undefined> {
  // A request without a body, read to its end.
  const request = { method: options.method ?? 'GET', url, headers: options.headers ?? {}, readableEnded: true, resume: (): void => undefined };
  const response = new FakeResponse();
  for (const [ name, value ] of Object.entries(options.preset ?? {})) {
    response.setHeader(name, value);
  }
  const input = { request: request as unknown as HttpRequest, response: response as unknown as HttpResponse };
  try {
    await handler.canHandle(input);
  } catch (error: unknown) {
    expect(error).toBe(NOT_HANDLED);
    return undefined;
  }
  await handler.handle(input);
  expect(response.ended).toBe(true);
  return {
    status: response.statusCode,
    headers: response.headers,
    body: response.body,
    json: (): Record<string, unknown> => JSON.parse(response.body) as Record<string, unknown>,
  };
}

/** Like call, but the handler must take the request. */
export async function get(handler: HttpHandler, url: string, options: CallOptions = {}): Promise<Reply> {
  const reply = await call(handler, url, options);
  if (!reply) {
    throw new Error(`${url} was not handled`);
  }
  return reply;
}

