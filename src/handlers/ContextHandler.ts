import { createHash } from 'node:crypto';
import type { HttpHandlerInput } from '@solid/community-server';
import { NOT_HANDLED } from './http/NotHandled';
import { fedpodContext } from '../plugins/ldp/Contexts';
import { JsonHttpHandler } from './http/JsonHttpHandler';

/** Serves Fedpod's JSON-LD context (at its route's path, /context.json), cacheable. */
export class ContextHandler extends JsonHttpHandler {
  private readonly body = JSON.stringify(fedpodContext(), null, 2);
  private readonly eTag = `"${createHash('sha256').update(this.body).digest('base64url').slice(0, 22)}"`;

  public override async canHandle({ request }: HttpHandlerInput): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response }: HttpHandlerInput): Promise<void> {
    if (request.headers['if-none-match'] === this.eTag) {
      response.writeHead(304, { etag: this.eTag });
      response.end();
      return;
    }
    response.writeHead(200, {
      'content-type': 'application/ld+json; charset=utf-8',
      'content-length': Buffer.byteLength(this.body),
      'cache-control': 'public, max-age=3600',
      etag: this.eTag,
    });
    response.end(request.method === 'HEAD' ? undefined : this.body);
  }
}
