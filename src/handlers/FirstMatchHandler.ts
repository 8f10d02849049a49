import type { HttpHandlerInput } from '@solid/community-server';
import { HttpHandler } from '@solid/community-server';
import { NOT_HANDLED } from './http/NotHandled';
import { isRequestMatcher } from './http/RequestMatcher';
import type { OperationInput } from './http/Operation';

/**
 * Offers a request to its handlers in order and lets the first that accepts it handle it.
 *
 * Used instead of CSS's WaterfallHandler for Fedpod's own handler lists because that one asks every
 * handler twice (in canHandle and again in handle) and builds an aggregate HttpError when none
 * matches; here the choice made in canHandle is remembered for handle, and a refusal is the shared
 * NOT_HANDLED error. Handlers that are RequestMatchers are asked synchronously. A FirstMatchHandler in the
 * list gives its members to this one's list, so lists composed from several config parts are one
 * dispatcher, not nested ones. The input goes to the chosen handler as it came (with the pipeline's operation).
 */
export class FirstMatchHandler extends HttpHandler {
  private readonly chosen = new WeakMap<HttpHandlerInput, HttpHandler>();

  private readonly handlers: HttpHandler[];

  public constructor(handlers: HttpHandler[] = []) {
    super();
    this.handlers = handlers.flatMap((handler): HttpHandler[] =>
      handler instanceof FirstMatchHandler ? handler.handlers : [ handler ]);
  }

  public override async canHandle(input: OperationInput): Promise<void> {
    this.chosen.set(input, await this.find(input));
  }

  public async handle(input: OperationInput): Promise<void> {
    const handler = this.chosen.get(input) ?? await this.find(input);
    this.chosen.delete(input);
    await handler.handle(input);
  }

  private async find(input: OperationInput): Promise<HttpHandler> {
    for (const handler of this.handlers) {
      if (isRequestMatcher(handler)) {
        if (handler.accepts(input)) {
          return handler;
        }
        continue;
      }
      try {
        await handler.canHandle(input);
        return handler;
      } catch {
        // Not this one: try the next.
      }
    }
    throw NOT_HANDLED;
  }
}
