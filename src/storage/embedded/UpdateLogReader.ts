import { promises as fs } from 'node:fs';
import type { LogRecordCodec } from './LogRecordCodec';

export interface LogReadResult {
  /** Length of the prefix made of whole, valid records. */
  readonly validLength: number;
  readonly fileLength: number;
  readonly recordCount: number;
  /** True when everything after `validLength` is zero bytes: preallocated space, not a torn write. */
  readonly tailIsZero: boolean;
}

/**
 * Streams the records of one log file in bounded chunks, stopping at the first
 * incomplete or corrupt record (or the zeros of preallocated space). Deciding what to do with the tail (truncate it
 * or refuse to boot) is left to the caller, who knows whether it is the last log.
 */
export class UpdateLogReader {
  public constructor(
    private readonly codec: LogRecordCodec,
    private readonly chunkBytes = 8 * 1024 * 1024,
  ) {}

  public async read(path: string, onRecord: (payload: Buffer) => void): Promise<LogReadResult> {
    const handle = await fs.open(path, 'r');
    try {
      const fileLength = (await handle.stat()).size;
      let carry = Buffer.alloc(0);
      let validLength = 0;
      let recordCount = 0;
      let filePosition = 0;
      while (filePosition < fileLength) {
        const chunk = Buffer.allocUnsafe(Math.min(this.chunkBytes, fileLength - filePosition));
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, filePosition);
        if (bytesRead === 0) {
          break;
        }
        filePosition += bytesRead;
        const buffer = carry.length === 0 ? chunk.subarray(0, bytesRead) : Buffer.concat([ carry, chunk.subarray(0, bytesRead) ]);
        const decoded = this.codec.decode(buffer);
        for (const payload of decoded.payloads) {
          onRecord(payload);
        }
        recordCount += decoded.payloads.length;
        validLength += decoded.consumed;
        if (decoded.corrupt) {
          break;
        }
        carry = buffer.subarray(decoded.consumed);
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
