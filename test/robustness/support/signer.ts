/**
 * A remote actor on loopback whose key signs the deliveries of the verified-signature groups: it
 * serves its actor document (with the public key of `throwawayRsaKey`) to a server started WITH
 * --allow-private-network, so the server gets the key and the signature itself is what is judged.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { standInActorDocument } from '../../support/stand-in-actor';

export interface Signer {
  /** `http://127.0.0.1:<port>/actor` */
  actor: string;
  keyId: string;
  close(): Promise<void>;
}

export async function startSigner(key: KeyObject): Promise<Signer> {
  const publicKeyPem = createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();
  let actor = '';
  const server = http.createServer((request, response) => {
    request.resume();
    if (request.method === 'GET' && (request.url ?? '').split('?')[0] === '/actor') {
      response.writeHead(200, { 'content-type': 'application/activity+json' });
      response.end(JSON.stringify(standInActorDocument(actor, publicKeyPem, 'signer')));
      return;
    }
    response.writeHead(request.method === 'POST' ? 202 : 404, { 'content-type': 'application/json' });
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  actor = `http://127.0.0.1:${(server.address() as AddressInfo).port}/actor`;
  return {
    actor,
    keyId: `${actor}#main-key`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
