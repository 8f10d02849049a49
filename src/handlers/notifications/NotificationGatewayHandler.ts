import type { HttpHandlerInput, OperationHttpHandler } from '@solid/community-server';
import type { OperationInput } from '../http/Operation';
import { BasicRepresentation, readableToString } from '@solid/community-server';
import { fillPath, MINTED_PATHS } from '../../util/PathTemplates';
import { badRequest, FedpodHttpError } from '../../util/HttpErrors';
import { readJsonBody, sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';

const NOTIFY = 'http://www.w3.org/ns/solid/notifications#';
/** A negotiation or connection request is a small JSON object. */
const MAX_BODY_BYTES = 16 * 1024;

/**
 * The notification gateway that Inrupt's notification library negotiates with before it opens a
 * socket (the protocol of Inrupt's servers, older than Solid Notifications 0.2): a POST of
 * `{ protocols, features }` to the gateway answers the connection endpoint for WebSockets; a POST of
 * `{ topic }` there subscribes, and answers the socket to open. The subscription is CSS's
 * WebSocketChannel2023, made by the same subscriber as a POST to `/.notifications/WebSocketChannel2023/`
 * (same credentials, same check that the subscriber may read the topic, same socket and messages), so
 * both ways of subscribing are one.
 */
export class NotificationGatewayHandler extends JsonHttpHandler {
  private readonly gatewayPath: string;
  private readonly connectionPath: string;
  private readonly connection: string;
  private readonly channelTarget: string;

  /**
   * @param baseUrl - Public base URL.
   * @param subscriber - CSS's WebSocketChannel2023 subscriber (`urn:solid-server:default:WebSocket2023Subscriber`).
   */
  public constructor(baseUrl: string, private readonly subscriber: OperationHttpHandler) {
    super();
    const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
    const url = (path: keyof typeof MINTED_PATHS): string => `${base}${fillPath(MINTED_PATHS[path].template)}`;
    this.gatewayPath = new URL(url('notificationGateway')).pathname;
    this.connection = url('notificationConnection');
    this.connectionPath = new URL(this.connection).pathname;
    // CSS's subscription route for the channel type (css:config/http/notifications/websockets/http.json).
    this.channelTarget = `${base}.notifications/WebSocketChannel2023/`;
  }

  protected async serve(input: OperationInput): Promise<void> {
    const { request } = input;
    const path = input.operation.target.path;
    if (path !== this.gatewayPath && path !== this.connectionPath) {
      throw new FedpodHttpError(404, 'not_found', `Nothing at ${path}`);
    }
    if (request.method !== 'POST') {
      throw new FedpodHttpError(405, 'method_not_allowed', `${path} takes POST only`, { allow: 'POST' });
    }
    const body = await readJsonBody(request, MAX_BODY_BYTES);
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('The body must be a JSON object');
    }
    if (path === this.gatewayPath) {
      this.negotiate(body as Record<string, unknown>, input);
      return;
    }
    await this.connect(body as Record<string, unknown>, input);
  }

  /** `{ protocols: ["ws"], features: [...] }` → where to ask for a WebSocket. */
  private negotiate(body: Record<string, unknown>, { response }: HttpHandlerInput): void {
    const protocols = Array.isArray(body.protocols) ? body.protocols : [];
    if (!protocols.includes('ws')) {
      throw new FedpodHttpError(422, 'unsupported_protocol', 'This server offers notifications over WebSockets only: protocols must include "ws"');
    }
    const features = Array.isArray(body.features) ? body.features : [];
    if (features.length > 0) {
      throw new FedpodHttpError(422, 'unsupported_feature', `No notification features are offered (asked for ${features.join(', ')})`);
    }
    sendJson(response, 200, { endpoint: this.connection, protocol: 'ws', features: []});
  }

  /** `{ topic }` → a WebSocketChannel2023 subscription of the requester, and its socket. */
  private async connect(body: Record<string, unknown>, { request, response }: HttpHandlerInput): Promise<void> {
    if (typeof body.topic !== 'string' || !/^https?:\/\//u.test(body.topic)) {
      throw badRequest('The body must name the resource to follow as "topic"');
    }
    const channel = JSON.stringify({ '@context': [ 'https://www.w3.org/ns/solid/notification/v1' ],
      type: `${NOTIFY}WebSocketChannel2023`, topic: body.topic });
    const answer = await this.subscriber.handle({ request, response, operation: {
      method: 'POST',
      target: { path: this.channelTarget },
      preferences: {},
      body: new BasicRepresentation(channel, 'application/ld+json'),
    }});
    // Read to its end: CSS completes the channel (opens it to its socket) once its answer was read.
    const made = JSON.parse(answer.data ? await readableToString(answer.data) : '{}') as { receiveFrom?: string };
    if (typeof made.receiveFrom !== 'string') {
      throw new FedpodHttpError(500, 'internal_error', 'The subscription made no socket');
    }
    sendJson(response, 200, { endpoint: made.receiveFrom, protocol: 'ws' });
  }
}
