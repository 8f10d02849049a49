import type { HttpRequest, HttpResponse } from '@solid/community-server';
import type { OperationInput } from '../../../../src/handlers/http/Operation';
import { Operation } from '../../../../src/handlers/http/Operation';

/**
 * A handler's input with the operation the pipeline would build for `request` (its target on
 * `origin`, anonymous), for tests that call handlers directly.
 */
export function operationInput(request: HttpRequest, response: HttpResponse, origin = 'https://pod.example'): OperationInput {
  const target = Operation.parseTarget(origin, request.url ?? '/');
  if (!target) {
    throw new Error(`${request.url} is not a valid request target`);
  }
  return { request, response, operation: new Operation({ request, response, target }) };
}
