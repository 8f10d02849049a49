import { FedpodHttpError } from '../../util/HttpErrors';

/** The 400 for an action that cannot be bound: its body lists the allowed actions. */
export class UnknownActionError extends FedpodHttpError {
  public constructor(action: unknown, public readonly allowedActions: string[]) {
    super(400, 'unknown_action', `${typeof action === 'string' && action !== '' ?
      `Unknown webhook action ${JSON.stringify(action)}` : 'The body must name an action'}; allowed actions: ${
      allowedActions.join(', ')}.`, {}, { allowedActions });
    this.name = 'UnknownActionError';
  }
}
