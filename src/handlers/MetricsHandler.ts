import { createHash, timingSafeEqual } from 'node:crypto';
import type { HttpHandlerInput } from '@solid/community-server';
import type { Metrics } from '../plugins/observability/Metrics';
import { notFound, unauthorized } from '../util/HttpErrors';
import { bearerToken } from './auth/BearerToken';
import { JsonHttpHandler } from './http/JsonHttpHandler';
import { NOT_HANDLED } from './http/NotHandled';

/** SHA-256 of a token: equal-length digests for a constant-time comparison. */
function digestOf(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * GET /metrics (the route's path): the Prometheus exposition, when metrics are on; when they are off,
 * 404. With a token, only
 * requests with `Authorization: Bearer <token>` get it (Prometheus's `authorization` scrape setting);
 * others get 401.
 */
export class MetricsHandler extends JsonHttpHandler {
  private readonly tokenDigest?: Buffer;

  /**
   * @param metrics - The server's metrics.
   * @param token - Bearer token a scrape must present; empty or absent: none needed.
   */
  public constructor(private readonly metrics: Metrics, token = '') {
    super();
    this.tokenDigest = token ? digestOf(token) : undefined;
  }

  public override async canHandle({ request }: HttpHandlerInput): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response }: HttpHandlerInput): Promise<void> {
    if (!this.metrics.enabled) {
      throw notFound('Metrics are off (start the server with --metrics).');
    }
    if (this.tokenDigest) {
      const token = bearerToken(request);
      if (!token || !timingSafeEqual(digestOf(token), this.tokenDigest)) {
        throw unauthorized('Metrics need the metrics token: "Authorization: Bearer <token>".',
          request.headers.authorization ? 'invalid_token' : 'authorization_required');
      }
    }
    const { contentType, body } = await this.metrics.expose();
    response.writeHead(200, {
      'content-type': contentType,
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
    });
    response.end(body);
  }
}
