import type { IncomingMessage, ServerResponse } from 'node:http';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { guardStream } from '@solid/community-server';
import type { Agent } from '../../../../src/handlers/http/Agent';
import { Operation } from '../../../../src/handlers/http/Operation';

/** The operation of a request of `target` (an absolute IRI, maybe with a query) as the pipeline builds it, over a real (empty) request stream. */
export function accessRequest(method: string, target: string, agent: Agent = {}, params: Record<string, string> = {},
  response = new EventEmitter() as ServerResponse): Operation {
  const url = new URL(target);
  const request = guardStream(Object.assign(new PassThrough(), { method, url: `${url.pathname}${url.search}`, headers: {}}) as unknown as IncomingMessage);
  return new Operation({ request, response, agent, params,
    target: Operation.parseTarget(url.origin, `${url.pathname}${url.search}`)! });
}

/** The HTTP status an authorization ends in (200 when it lets the request through). */
export async function statusOf(authorize: Promise<void>): Promise<number> {
  try {
    await authorize;
    return 200;
  } catch (error: unknown) {
    return (error as { statusCode: number }).statusCode;
  }
}
