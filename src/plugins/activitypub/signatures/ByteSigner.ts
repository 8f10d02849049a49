import type { KeyObject } from 'node:crypto';
import type { Rfc9421Algorithm } from './SignatureCommon';

/** Makes the private-key operation of an HTTP signature: the signature of `data` with `privateKey`. */
export interface ByteSigner {
  sign: (alg: Rfc9421Algorithm, data: Buffer, privateKey: KeyObject) => Promise<Buffer>;
}
