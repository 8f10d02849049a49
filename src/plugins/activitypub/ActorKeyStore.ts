import { generateKeyPair as generateKeyPairCallback } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { errnoOf } from '../../util/Errors';
import { makeDirectoryDurably, syncDirectory, writeNewFileSynced } from '../../util/DurableFiles';

const generateKeyPair = promisify(generateKeyPairCallback);
const USERNAME = /^[a-z0-9_][a-z0-9._-]{0,63}$/u;

export interface ActorKeyPair {
  publicKeyPem: string;
  privateKeyPem: string;
}

/**
 * Each actor's RSA-2048 key pair as two files in the actors storage, `<dataDir>/actors/<username>/`:
 * `private.pem` (mode 0600, in a 0700 directory) and `public.pem`. The private key signs outgoing
 * deliveries and never leaves these files: it is not served, logged or stored in the triple store.
 */
export class ActorKeyStore {
  private readonly root: string;

  public constructor(dataDir: string) {
    this.root = path.join(dataDir, 'actors');
  }

  /** Generates and stores a key pair; refuses to overwrite an existing one. */
  public async create(username: string): Promise<ActorKeyPair> {
    const dir = this.dirOf(username);
    await makeDirectoryDurably(dir, 0o700);
    const { publicKey, privateKey } = await generateKeyPair('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    await writeNewFileSynced(path.join(dir, 'private.pem'), privateKey, 0o600);
    await writeNewFileSynced(path.join(dir, 'public.pem'), publicKey, 0o644);
    // The files' entries too: an actor whose account survived a power loss must still have its keys.
    await syncDirectory(dir);
    return { publicKeyPem: publicKey, privateKeyPem: privateKey };
  }

  public async publicKeyPem(username: string): Promise<string | undefined> {
    return this.read(path.join(this.dirOf(username), 'public.pem'));
  }

  public async privateKeyPem(username: string): Promise<string | undefined> {
    return this.read(path.join(this.dirOf(username), 'private.pem'));
  }

  public async remove(username: string): Promise<void> {
    await fs.rm(this.dirOf(username), { recursive: true, force: true });
  }

  private dirOf(username: string): string {
    if (!USERNAME.test(username)) {
      throw new Error(`Unsafe username for a directory name: ${JSON.stringify(username)}`);
    }
    return path.join(this.root, username);
  }

  private async read(file: string): Promise<string | undefined> {
    try {
      return await fs.readFile(file, 'utf8');
    } catch (error: unknown) {
      if (errnoOf(error) === 'ENOENT') {
        return undefined;
      }
      throw error;
    }
  }
}
