import type { OperationInput } from './Operation';

/**
 * A handler that can tell at once, without awaiting anything, whether a request is its own.
 * FirstMatchHandler asks `accepts` instead of awaiting `canHandle`: a refusal is then a plain
 * `false`, not a rejected promise caught one level up, which cost about 10% of the rate of webhook
 * POSTs (offered to the inbox handler first) in the fast lane.
 */
export interface RequestMatcher {
  accepts: (input: OperationInput) => boolean;
}

export function isRequestMatcher(handler: object): handler is RequestMatcher {
  return typeof (handler as Partial<RequestMatcher>).accepts === 'function';
}
