import { FedpodHttpError } from '../../util/HttpErrors';

/**
 * The error of a job whose data cannot be written (JSON.stringify of a journal record or a Redis job
 * threw): a client's 4xx with the reason, not a 500. A RangeError is all JSON.stringify throws for
 * data too deep (the call stack) or too large (the longest string); anything else is not the data's
 * fault and is rethrown as it is.
 */
export function unstorableJob(error: unknown): unknown {
  if (!(error instanceof RangeError)) {
    return error;
  }
  if (/call stack/iu.test(error.message)) {
    return new FedpodHttpError(400, 'too_deeply_nested', 'The job data is nested too deeply to be stored.', {}, {}, error);
  }
  return new FedpodHttpError(413, 'payload_too_large', `The job data is too large to be stored: ${error.message}`, {}, {}, error);
}

/** JSON text of a job's data; a 4xx (unstorableJob) when it cannot be made. */
export function jobDataJson(data: unknown): string {
  try {
    return JSON.stringify(data) ?? 'null';
  } catch (error: unknown) {
    throw unstorableJob(error);
  }
}
