import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';

const PARAMS = { N: 16_384, r: 8, p: 1, keyLength: 32 };

function derive(password: string, salt: Buffer, options: ScryptOptions & { keyLength: number }): Promise<Buffer> {
  return new Promise((resolve, reject): void => {
    scrypt(password.normalize('NFKC'), salt, options.keyLength, { N: options.N, r: options.r, p: options.p,
      maxmem: 64 * 1024 * 1024 }, (error, key): void => {
      if (error) {
        reject(error);
      } else {
        resolve(key);
      }
    });
  });
}

/**
 * scrypt password hashes (`scrypt$N$r$p$salt$hash`, base64url), from node:crypto: a well-kept
 * memory-hard KDF with no native add-on to build. Parameters are stored with each hash, so they
 * can be raised later without breaking existing accounts. Runs on libuv's thread pool.
 */
export class PasswordHasher {
  public async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await derive(password, salt, PARAMS);
    return [ 'scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url') ].join('$');
  }

  public async verify(password: string, stored: string): Promise<boolean> {
    const [ scheme, n, r, p, salt, hash ] = stored.split('$');
    if (scheme !== 'scrypt' || !salt || !hash) {
      return false;
    }
    const expected = Buffer.from(hash, 'base64url');
    // A short or empty key would compare equal to anything derived to its length.
    if (expected.length < 16) {
      return false;
    }
    try {
      const key = await derive(password, Buffer.from(salt, 'base64url'),
        { N: Number(n), r: Number(r), p: Number(p), keyLength: expected.length });
      return key.length === expected.length && timingSafeEqual(key, expected);
    } catch {
      // Parameters node:crypto refuses (N not a power of two...): a damaged hash, not a match.
      return false;
    }
  }
}
