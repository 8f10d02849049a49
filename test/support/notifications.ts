/** Solid notification subscriptions for tests: a plain fetch and a plain WebSocket client. */
import WebSocket from 'ws';

export const NOTIFY = 'http://www.w3.org/ns/solid/notifications#';

export interface Notification {
  type: string;
  object: string;
  target?: string;
}

/** POSTs a subscription of `type` to `topic` (with `extra` fields such as sendTo), as `headers` say who asks. */
export async function requestSubscription(baseUrl: string, topic: string, headers: Record<string, string> = {},
  type = 'WebSocketChannel2023', extra: Record<string, string> = {}): Promise<Response> {
  return fetch(`${baseUrl}.notifications/${type}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/ld+json', ...headers },
    body: JSON.stringify({ '@context': [ 'https://www.w3.org/ns/solid/notification/v1' ], type: `${NOTIFY}${type}`, topic, ...extra }),
  });
}

/**
 * Subscribes over WebSocketChannel2023 and resolves once the socket is open, with the list the
 * notifications it receives are pushed to; the socket is added to `sockets` for the caller to close.
 */
export async function subscribeWebSocket(baseUrl: string, topic: string, sockets: WebSocket[],
  headers: Record<string, string> = {}): Promise<Notification[]> {
  const answer = await requestSubscription(baseUrl, topic, headers);
  if (answer.status !== 200) {
    throw new Error(`Subscription to ${topic} answered ${answer.status}: ${await answer.text()}`);
  }
  const { receiveFrom } = await answer.json() as { receiveFrom: string };
  const received: Notification[] = [];
  const socket = new WebSocket(receiveFrom);
  sockets.push(socket);
  socket.on('message', (message: Buffer): void => {
    received.push(JSON.parse(message.toString('utf8')) as Notification);
  });
  await new Promise<void>((resolve, reject): void => {
    socket.once('open', (): void => resolve());
    socket.once('error', reject);
  });
  return received;
}
