import { crc32 } from 'node:zlib';

/** Outcome of scanning a buffer for framed records. */
export interface DecodedRecords {
  /** Payloads of all complete, checksum-valid records, in order. */
  readonly payloads: Buffer[];
  /** Bytes consumed by those records; anything after is incomplete or corrupt. */
  readonly consumed: number;
  /** True when the bytes after `consumed` can never become a valid record (bad checksum/length). */
  readonly corrupt: boolean;
}

/**
 * Frames log records as [u32 length][u32 crc32(length bytes + payload)][payload].
 * The checksum covers the length too, so a zero-filled tail (what a filesystem may
 * leave after a crash) or a torn length field is detected rather than replayed.
 */
export class LogRecordCodec {
  public static readonly headerBytes = 8;

  public constructor(private readonly maxPayloadBytes = 1024 * 1024 * 1024) {}

  public frame(payload: Buffer): Buffer {
    const framed = Buffer.allocUnsafe(LogRecordCodec.headerBytes + payload.length);
    framed.writeUInt32LE(payload.length, 0);
    payload.copy(framed, LogRecordCodec.headerBytes);
    framed.writeUInt32LE(this.checksum(framed, payload.length), 4);
    return framed;
  }

  /** Decodes as many whole records as `buffer` holds, starting at offset 0. */
  public decode(buffer: Buffer): DecodedRecords {
    const payloads: Buffer[] = [];
    let offset = 0;
    while (buffer.length - offset >= LogRecordCodec.headerBytes) {
      const length = buffer.readUInt32LE(offset);
      // Empty payloads never occur (every payload starts with a type byte), so a
      // zero length means a zero-filled, never-written region.
      if (length === 0 || length > this.maxPayloadBytes) {
        return { payloads, consumed: offset, corrupt: true };
      }
      const end = offset + LogRecordCodec.headerBytes + length;
      if (end > buffer.length) {
        break;
      }
      const record = buffer.subarray(offset, end);
      if (record.readUInt32LE(4) !== this.checksum(record, length)) {
        return { payloads, consumed: offset, corrupt: true };
      }
      payloads.push(record.subarray(LogRecordCodec.headerBytes));
      offset = end;
    }
    return { payloads, consumed: offset, corrupt: false };
  }

  private checksum(record: Buffer, payloadLength: number): number {
    const lengthCrc = crc32(record.subarray(0, 4));
    return crc32(record.subarray(LogRecordCodec.headerBytes, LogRecordCodec.headerBytes + payloadLength), lengthCrc);
  }
}
