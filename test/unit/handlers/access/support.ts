import type { IncomingMessage, ServerResponse } from 'node:http';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { AccessRequest } from '../../../../src/handlers/access/AccessPolicy';
import type { Agent } from '../../../../src/handlers/http/Agent';

/** An access request as the pipeline builds it, over a real (empty) request stream. */
export function accessRequest(method: string, target: string, agent: Agent = {}, params: Record<string, string> = {}): AccessRequest {
  const request = Object.assign(new PassThrough(), { method, headers: {}}) as unknown as IncomingMessage;
  return { request, response: new EventEmitter() as ServerResponse, method, target, agent, params };
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
