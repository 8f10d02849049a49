import type { Quad } from '@rdfjs/types';
import arrayifyStream from 'arrayify-stream';
import type { AdapterFactory, RepresentationConverter } from '@solid/community-server';
import { BasicRepresentation, getLoggerFor, INTERNAL_QUADS, PassthroughAdapter, PassthroughAdapterFactory } from '@solid/community-server';
import type { Adapter, AdapterPayload } from '@solid/community-server/templates/types/oidc-provider';
import type { OutboundGuard } from '../outbound/OutboundGuard';
import { messageOf } from '../../util/Errors';

const OIDC_CONTEXT = 'https://www.w3.org/ns/solid/oidc-context.jsonld';
const REDIRECT_URIS = 'http://www.w3.org/ns/solid/oidc#redirect_uris';
const ACCEPT = 'application/ld+json, application/json;q=0.9, text/turtle;q=0.8, */*;q=0.1';

/**
 * Solid-OIDC Client ID Documents (an app's `client_id` is the URL of its registration), read as CSS's
 * ClientIdAdapter reads them, but fetched through the server's outbound guard: only https URLs (or
 * http on localhost, for development, as CSS allows), to public addresses unless
 * `--allow-private-network` (this server's own origin always), bounded in time and size, redirects
 * checked. A client ID that cannot be had, for whatever reason, is a client the provider does not
 * know: oidc-provider answers it as it answers every unknown client (400 at the authorization
 * endpoint, 401 invalid_client at the token endpoint), never a 500; the reason is logged.
 */
class GuardedClientIdAdapter extends PassthroughAdapter {
  protected readonly logger = getLoggerFor(this);

  public constructor(name: string, source: Adapter, private readonly converter: RepresentationConverter,
    private readonly outbound: OutboundGuard) {
    super(name, source);
  }

  public override async find(id: string): Promise<AdapterPayload | void | undefined> {
    const payload = await this.source.find(id);
    if (payload || this.name !== 'Client' || !/^https?:\/\//iu.test(id)) {
      return payload;
    }
    try {
      return await this.fetchClient(id);
    } catch (error: unknown) {
      this.logger.warn(`Client ID document ${id} not used: ${messageOf(error)}`);
      return undefined;
    }
  }

  private async fetchClient(id: string): Promise<AdapterPayload> {
    if (!/^https:|^http:\/\/localhost(?::\d+)?(?:\/|$)/u.test(id)) {
      throw new Error('a client ID must be an https URL (or http on localhost)');
    }
    const response = await this.outbound.get(id, { accept: ACCEPT });
    if (response.status !== 200) {
      throw new Error(`it answered ${response.status}`);
    }
    const text = response.body.toString('utf8');
    let json: Record<string, unknown> | undefined;
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      const contexts = Array.isArray(parsed['@context']) ? parsed['@context'] : [ parsed['@context'] ];
      json = contexts.includes(OIDC_CONTEXT) ? parsed : undefined;
    } catch {
      json = undefined;
    }
    let payload: AdapterPayload;
    if (json) {
      if (json.client_id !== id) {
        throw new Error('its client_id is not the client ID');
      }
      payload = json as AdapterPayload;
    } else {
      payload = { client_id: id, redirect_uris: await this.redirectUris(id, text, response.contentType) };
    }
    // `token_endpoint_auth_method: 'none'` keeps oidc-provider from asking for a client secret.
    return { ...payload, token_endpoint_auth_method: 'none' };
  }

  /** The redirect URIs of a client ID document in another RDF syntax (CSS's converters, guarded as the rest). */
  private async redirectUris(id: string, text: string, contentType: string | undefined): Promise<string[]> {
    if (!contentType) {
      throw new Error('it has no content type');
    }
    const representation = await this.converter.handleSafe({
      representation: new BasicRepresentation(text, contentType),
      identifier: { path: id },
      preferences: { type: { [INTERNAL_QUADS]: 1 }},
    });
    const quads = await arrayifyStream<Quad>(representation.data);
    return quads.filter((quad): boolean => quad.predicate.value === REDIRECT_URIS).map((quad): string => quad.object.value);
  }
}

/** CSS's ClientIdAdapterFactory, with client ID documents fetched through the outbound guard. */
export class GuardedClientIdAdapterFactory extends PassthroughAdapterFactory {
  /**
   * @param source - The adapters of what the provider stores.
   * @param converter - Reads client ID documents in RDF syntaxes.
   * @param outbound - The server's outbound guard.
   */
  public constructor(source: AdapterFactory, private readonly converter: RepresentationConverter, private readonly outbound: OutboundGuard) {
    super(source);
  }

  public override createStorageAdapter(name: string): Adapter {
    return new GuardedClientIdAdapter(name, this.source.createStorageAdapter(name), this.converter, this.outbound);
  }
}
