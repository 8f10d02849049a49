import type { HttpHandler, HttpRequest, HttpResponse } from '@solid/community-server';
import { NOT_HANDLED } from '../../../../src/handlers/http/NotHandled';
import { operationInput } from '../support/operations';

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
  const input = operationInput(request as unknown as HttpRequest, response as unknown as HttpResponse);
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

