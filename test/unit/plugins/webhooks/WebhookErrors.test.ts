import { UnknownActionError } from '../../../../src/plugins/webhooks/WebhookErrors';
import { FedpodHttpError } from '../../../../src/util/HttpErrors';

describe('UnknownActionError', (): void => {
  it('is a 400 unknown_action naming the action and listing the allowed ones', (): void => {
    const error = new UnknownActionError('nope', [ 'post-to-outbox', 'store-in-container' ]);
    expect(error).toBeInstanceOf(FedpodHttpError);
    expect(error.statusCode).toBe(400);
    expect(error.errorCode).toBe('unknown_action');
    expect(error.name).toBe('UnknownActionError');
    expect(error.message).toBe('Unknown webhook action "nope"; allowed actions: post-to-outbox, store-in-container.');
    expect(error.allowedActions).toEqual([ 'post-to-outbox', 'store-in-container' ]);
    expect(error.details).toEqual({ allowedActions: [ 'post-to-outbox', 'store-in-container' ]});
  });

  it.each([ undefined, '', 42, { action: 'x' } ])('asks for an action when the body names none (%j)', (action): void => {
    expect(new UnknownActionError(action, [ 'a' ]).message).toBe('The body must name an action; allowed actions: a.');
  });
});
