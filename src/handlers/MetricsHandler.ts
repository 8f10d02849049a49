import type { HttpHandlerInput } from '@solid/community-server';
import type { Metrics } from '../plugins/observability/Metrics';
import { JsonHttpHandler } from './JsonHttpHandler';
import { NOT_HANDLED } from './NotHandled';

/**
 * GET /metrics: the Prometheus exposition, when metrics are on; when they are off the request is left
 * to the other handlers, so /metrics is as unknown as any other missing path.
 */
export class MetricsHandler extends JsonHttpHandler {
  /**
   * @param metrics - The server's metrics.
   */
  public constructor(private readonly metrics: Metrics) {
    super();
  }

  public override async canHandle({ request }: HttpHandlerInput): Promise<void> {
    if (!this.metrics.enabled || request.url?.split('?')[0] !== '/metrics' ||
      (request.method !== 'GET' && request.method !== 'HEAD')) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ response }: HttpHandlerInput): Promise<void> {
    const { contentType, body } = await this.metrics.expose();
    response.writeHead(200, {
      'content-type': contentType,
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
    });
    response.end(body);
  }
}
