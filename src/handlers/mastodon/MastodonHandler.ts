import type { HttpHandlerInput } from '@solid/community-server';
import { getLoggerFor, HttpHandler } from '@solid/community-server';
import { agentIri } from '../http/Agent';
import { discardBody, errorAnswer, sendJson } from '../http/HttpUtil';
import type { Operation, OperationInput } from '../http/Operation';
import type { Reader } from '../../plugins/mastodon/MastodonStatuses';

/**
 * Base of the Mastodon API's handlers: errors are answered in Mastodon's shape, `{ "error": text }`
 * (apps show that text), with the error's own status and headers.
 */
export abstract class MastodonHandler extends HttpHandler {
  protected readonly logger = getLoggerFor(this);

  public async handle(input: HttpHandlerInput): Promise<void> {
    try {
      await this.serve(input as OperationInput);
    } catch (error: unknown) {
      const { status, body, headers } = errorAnswer(error);
      if (status >= 500) {
        this.logger.error(`${input.request.method} ${input.request.url} failed: ${(error as Error).stack ?? String(error)}`);
      }
      discardBody(input.request);
      if (input.response.headersSent) {
        input.response.destroy();
        return;
      }
      sendJson(input.response, status, { error: body.message }, headers ?? {});
    }
  }

  protected abstract serve(input: OperationInput): Promise<void>;
}

/** Who is reading, as the audience rules know them (the agent's checked credentials). */
export async function readerOf(operation: Operation): Promise<Reader> {
  const agent = await operation.resolveAgent();
  return { iri: agentIri(agent), username: agent.username };
}
