import type { HttpHandlerInput } from '@solid/community-server';
import { NOT_HANDLED } from './http/NotHandled';
import { sendJson } from './http/HttpUtil';
import { JsonHttpHandler } from './http/JsonHttpHandler';

/** GET /healthz: the process is up and serving HTTP (liveness; no dependency checks). */
export class HealthHandler extends JsonHttpHandler {
  public override async canHandle({ request }: HttpHandlerInput): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ response }: HttpHandlerInput): Promise<void> {
    sendJson(response, 200, { status: 'ok' }, { 'cache-control': 'no-store' });
  }
}
