/**
 * A Web Push service for tests (RFC 8030's receiving end): subscribers get an endpoint on it with
 * their own P-256 key and auth secret; each push it receives has its VAPID Authorization (RFC 8292)
 * verified against the key it names, and its body decrypted (RFC 8291, aes128gcm) with the
 * subscriber's private key, as a browser's push service and service worker would.
 */
import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { decodeJwt, importJWK, jwtVerify } from 'jose';

interface Ece {
  decrypt: (buffer: Buffer, params: { version: string; privateKey: ECDH; authSecret: Buffer }) => Buffer;
}
// web-push's own decoder of RFC 8188 bodies (it has no types of its own).
const ece = createRequire(__filename)('http_ece') as Ece;

export interface Subscriber {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  subscriber: string;
  /** The VAPID public key the push was signed with (the Authorization's `k`). */
  vapidKey: string;
  /** The decrypted body, parsed. */
  payload: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

/** The keys a browser gives an app for a subscription: its P-256 public key and a 16-byte auth secret (base64url). */
export function browserKeys(): { p256dh: string; auth: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

export class PushService {
  public readonly received: ReceivedPush[] = [];
  /** Pushes refused: a bad signature or a body that does not decrypt (a test expects none). */
  public readonly refused: string[] = [];
  private readonly keys = new Map<string, { ecdh: ECDH; auth: Buffer }>();
  private readonly answers = new Map<string, number>();

  private constructor(private readonly server: Server, public readonly origin: string) {}

  public static async start(): Promise<PushService> {
    const server = createServer();
    await new Promise<void>((resolve): void => {
      server.listen(0, '127.0.0.1', resolve);
    });
    const service = new PushService(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (request: IncomingMessage, response: ServerResponse): void => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer): void => {
        chunks.push(chunk);
      });
      request.on('end', (): void => {
        service.receive(request.url ?? '', request.headers, Buffer.concat(chunks)).then((status): void => {
          response.writeHead(status).end();
        }, (error: unknown): void => {
          service.refused.push(String(error));
          response.writeHead(400).end();
        });
      });
    });
    return service;
  }

  /** A new subscriber: an endpoint, and the keys a browser would give the app. */
  public subscriber(name: string): Subscriber {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    this.keys.set(name, { ecdh, auth });
    return { endpoint: `${this.origin}/push/${name}`,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') }};
  }

  /** What the service answers pushes to this subscriber from now on (201 until told otherwise). */
  public answer(name: string, status: number): void {
    this.answers.set(name, status);
  }

  public pushesTo(name: string): ReceivedPush[] {
    return this.received.filter((push): boolean => push.subscriber === name);
  }

  public async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve): void => {
      this.server.close((): void => resolve());
    });
  }

  private async receive(path: string, headers: ReceivedPush['headers'], body: Buffer): Promise<number> {
    const name = /^\/push\/([\w-]+)$/u.exec(path)?.[1];
    const keys = name === undefined ? undefined : this.keys.get(name);
    if (!name || !keys) {
      return 404;
    }
    const authorization = /^vapid t=([^,\s]+),\s*k=([\w-]+)$/u.exec(String(headers.authorization));
    if (!authorization) {
      throw new Error(`No VAPID Authorization: ${String(headers.authorization)}`);
    }
    const [ , jwt, vapidKey ] = authorization;
    const point = Buffer.from(vapidKey, 'base64url');
    const key = await importJWK({ kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url') }, 'ES256');
    await jwtVerify(jwt, key, { audience: this.origin, algorithms: [ 'ES256' ]});
    const { exp, sub } = decodeJwt(jwt);
    if (!exp || exp > Date.now() / 1000 + 24 * 60 * 60 || typeof sub !== 'string') {
      throw new Error('The VAPID JWT lasts more than 24 hours or names no subject');
    }
    if (headers['content-encoding'] !== 'aes128gcm') {
      throw new Error(`Content-Encoding ${String(headers['content-encoding'])}`);
    }
    const plain = ece.decrypt(body, { version: 'aes128gcm', privateKey: keys.ecdh, authSecret: keys.auth });
    this.received.push({ subscriber: name, vapidKey, payload: JSON.parse(plain.toString('utf8')) as Record<string, unknown>, headers });
    return this.answers.get(name) ?? 201;
  }
}
