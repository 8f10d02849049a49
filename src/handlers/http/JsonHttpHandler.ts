import type { HttpHandlerInput } from '@solid/community-server';
import { getLoggerFor, HttpHandler } from '@solid/community-server';
import { discardBody, sendError } from './HttpUtil';
import { errnoOf, messageOf, statusOf } from '../../util/Errors';

const CLIENT_GONE = new Set([ 'ECONNRESET', 'EPIPE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_PREMATURE_CLOSE' ]);

/**
 * Base of Fedpod's HTTP handlers: CSS turns an error thrown from a raw HttpHandler into a plain-text 500,
 * so errors are answered here instead, as `{ "error", "message" }` with their own status.
 */
export abstract class JsonHttpHandler extends HttpHandler {
  protected readonly logger = getLoggerFor(this);

  public async handle(input: HttpHandlerInput): Promise<void> {
    try {
      await this.serve(input);
    } catch (error: unknown) {
      const status = statusOf(error);
      if (CLIENT_GONE.has(errnoOf(error) ?? '')) {
        // The client went away mid-request: nothing to answer, nothing wrong here.
        this.logger.debug(`${input.request.method} ${input.request.url}: client gone`);
        input.response.destroy();
        return;
      }
      if (status === 503) {
        // A dependency is away (store, Redis): expected during an outage, no stack needed.
        this.logger.warn(`${input.request.method} ${input.request.url}: 503 ${messageOf(error)}`);
      } else if (typeof status !== 'number' || status >= 500) {
        this.logger.error(`${input.request.method} ${input.request.url} failed: ${(error as Error).stack ?? String(error)}`);
      }
      // The client may still be sending: drop the rest so that it reads the answer, not a reset.
      discardBody(input.request);
      sendError(input.response, error, input.request);
    }
  }

  protected abstract serve(input: HttpHandlerInput): Promise<void>;
}
