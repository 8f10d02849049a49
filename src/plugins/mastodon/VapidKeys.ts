import { promises as fs } from 'node:fs';
import path from 'node:path';
import webPush from 'web-push';
import { createFileOnce } from '../../util/DurableFiles';
import { errnoOf } from '../../util/Errors';

/** The server's VAPID key pair (RFC 8292), as web-push encodes it: base64url, the public key uncompressed. */
export interface VapidKeyPair {
  publicKey: string;
  privateKey: string;
}

/**
 * The server's VAPID key pair, which identifies it to push services (RFC 8292): made at first use
 * and kept in `<dataDir>/keys/vapid.json` (mode 0600), as the token signing key is, so it survives
 * restarts and every node sharing the data directory signs with the same one. Apps subscribe with
 * its public key (`server_key`, the instance's `vapid` key): a new key would silently end every
 * subscription, since push services refuse pushes signed by another key.
 */
export class VapidKeys {
  private keys?: Promise<VapidKeyPair>;

  public constructor(private readonly dataDir: string) {}

  public async keyPair(): Promise<VapidKeyPair> {
    this.keys ??= this.loadOrCreate().catch((error: unknown): never => {
      this.keys = undefined;
      throw error;
    });
    return this.keys;
  }

  public async publicKey(): Promise<string> {
    return (await this.keyPair()).publicKey;
  }

  private async loadOrCreate(): Promise<VapidKeyPair> {
    const file = path.join(this.dataDir, 'keys', 'vapid.json');
    try {
      return await this.load(file);
    } catch (error: unknown) {
      if (errnoOf(error) !== 'ENOENT') {
        throw error;
      }
    }
    const { publicKey, privateKey } = webPush.generateVAPIDKeys();
    // Another process may make the key at the same time: the first one made is the one.
    await createFileOnce(file, JSON.stringify({ publicKey, privateKey }));
    return this.load(file);
  }

  private async load(file: string): Promise<VapidKeyPair> {
    const { publicKey, privateKey } = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<VapidKeyPair>;
    if (typeof publicKey !== 'string' || typeof privateKey !== 'string') {
      throw new Error(`${file} holds no VAPID key pair`);
    }
    return { publicKey, privateKey };
  }
}
