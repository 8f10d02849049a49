import type { HttpHandlerInput } from '@solid/community-server';
import { NOT_HANDLED } from './http/NotHandled';
import { payloadTooLarge } from '../util/HttpErrors';
import { JsonHttpHandler } from './http/JsonHttpHandler';

/**
 * Refuses any request that declares a body over the limit with 413 before anything reads it,
 * whichever handler would have served it. Chunked bodies are limited where they are read.
 */
export class BodyLimitHandler extends JsonHttpHandler {
  public constructor(private readonly maxBodyBytes = 1_048_576) {
    super();
  }

  public override async canHandle({ request }: HttpHandlerInput): Promise<void> {
    const declared = Number(request.headers['content-length']);
    if (!(Number.isFinite(declared) && declared > this.maxBodyBytes)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request }: HttpHandlerInput): Promise<void> {
    request.resume();
    throw payloadTooLarge(`The body is larger than the limit of ${this.maxBodyBytes} bytes.`);
  }
}
