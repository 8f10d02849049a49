import type { OperationInput } from './Operation';

/**
 * A handler that can tell at once, without awaiting anything, whether a request is its own.
 * FirstMatchHandler asks `accepts` instead of awaiting `canHandle`: a refusal is then a plain
 * `false`, not a rejected promise caught one level up: a refusal by a handler that sits before the
 * one serving the request (InboxHandler, WebhookHandler in their routes' lists) costs no promise.
 */
export interface RequestMatcher {
  accepts: (input: OperationInput) => boolean;
}

export function isRequestMatcher(handler: object): handler is RequestMatcher {
  return typeof (handler as Partial<RequestMatcher>).accepts === 'function';
}
