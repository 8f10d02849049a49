import { promises as fs } from 'node:fs';
import type { WalFrameCodec } from './WalFrameCodec';

export interface WalReadResult {
  /** Length of the prefix made of whole, valid (and accepted) records: where valid data ends. */
  readonly validLength: number;
  readonly fileLength: number;
  readonly recordCount: number;
  /** True when everything after `validLength` is zero bytes: preallocated or never-written space, not a torn write. */
  readonly tailIsZero: boolean;
}

/**
 * Streams the records of one log file in bounded chunks, stopping at the first incomplete
 * or corrupt frame (or the zeros of preallocated space), or at the first payload the caller
 * rejects. What to do with the tail (cut it off, keep it aside, refuse to start) is left to
 * the caller, who knows whether the file is the last one written.
 */
export class WalReader {
  public constructor(
    private readonly codec: WalFrameCodec,
    private readonly chunkBytes = 8 * 1024 * 1024,
  ) {}

  /**
   * Calls `onRecord` with each payload in order (a view that is only valid during the call).
   * `onRecord` returning false ends the valid data before that record.
   */
  public async read(path: string, onRecord: (payload: Buffer) => boolean | void): Promise<WalReadResult> {
    const handle = await fs.open(path, 'r');
    try {
      const fileLength = (await handle.stat()).size;
      let carry = Buffer.alloc(0);
      let validLength = 0;
      let recordCount = 0;
      let filePosition = 0;
      let stopped = false;
      while (filePosition < fileLength && !stopped) {
        const chunk = Buffer.allocUnsafe(Math.min(this.chunkBytes, fileLength - filePosition));
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, filePosition);
        if (bytesRead === 0) {
          break;
        }
        filePosition += bytesRead;
        const buffer = carry.length === 0 ? chunk.subarray(0, bytesRead) : Buffer.concat([ carry, chunk.subarray(0, bytesRead) ]);
        const decoded = this.codec.decode(buffer);
        let consumed = 0;
        for (const payload of decoded.payloads) {
          if (onRecord(payload) === false) {
            stopped = true;
            break;
          }
          consumed = payload.byteOffset + payload.length - buffer.byteOffset;
          recordCount += 1;
        }
        validLength += consumed;
        stopped ||= decoded.corrupt;
        carry = buffer.subarray(consumed);
      }
      const tailIsZero = validLength === fileLength || await this.isZeroFrom(handle, validLength, fileLength);
      return { validLength, fileLength, recordCount, tailIsZero };
    } finally {
      await handle.close();
    }
  }

  private async isZeroFrom(handle: fs.FileHandle, start: number, end: number): Promise<boolean> {
    const chunk = Buffer.allocUnsafe(Math.min(this.chunkBytes, end - start));
    for (let position = start; position < end;) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, end - position), position);
      if (bytesRead === 0) {
        break;
      }
      for (let index = 0; index < bytesRead; index++) {
        if (chunk[index] !== 0) {
          return false;
        }
      }
      position += bytesRead;
    }
    return true;
  }
}
