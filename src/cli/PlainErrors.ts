import { UsageError } from './Console';

/** Errors of the program itself (a bug): their stack is what helps. */
const PROGRAM_ERRORS = [ TypeError, RangeError, ReferenceError, SyntaxError ];

/**
 * An error of the store, the network, the files or the data, as one line for the operator (a
 * UsageError, which `fail` prints without a stack); a programming error as it is.
 */
export function plainError(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof UsageError || PROGRAM_ERRORS.some((type): boolean => error instanceof type)) {
    return error;
  }
  return new UsageError(error.message);
}
