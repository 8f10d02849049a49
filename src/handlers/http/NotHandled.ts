import { NotImplementedHttpError } from '@solid/community-server';

/**
 * The one error Fedpod's handlers throw from canHandle to say "not mine".
 *
 * Every request is offered to several handlers before one takes it, and CSS's HttpError constructor
 * builds an RDF metadata store each time: a fresh error per refusal was the largest single cost of a
 * fast GET in a CPU profile. One shared instance (still an HttpError, so CSS aggregates statuses
 * correctly when no handler matches) costs nothing.
 */
export const NOT_HANDLED = new NotImplementedHttpError('Not handled by this handler');
