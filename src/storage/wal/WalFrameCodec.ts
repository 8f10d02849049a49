import { crc32 } from 'node:zlib';

/** Outcome of scanning a buffer for frames. */
export interface WalDecodedFrames {
  /** Payloads of all complete, checksum-valid frames, in order (views into the buffer). */
  readonly payloads: Buffer[];
  /** Bytes taken by those frames; anything after is incomplete or corrupt. */
  readonly consumed: number;
  /** True when the bytes after `consumed` can never become a valid frame (bad checksum or length). */
  readonly corrupt: boolean;
}

/**
 * Frames write-ahead-log records as [u32 length][u32 crc32(length bytes + payload)][payload],
 * little-endian. The checksum covers the length too, so a zero-filled tail (what a filesystem
 * may leave after a crash, or preallocated space) or a torn length field is detected rather
 * than replayed. Payloads are never empty, so a zero length always means unwritten space.
 */
export class WalFrameCodec {
  public static readonly headerBytes = 8;

  /** @param maxPayloadBytes - a longer length field is taken for garbage, not for a frame */
  public constructor(private readonly maxPayloadBytes = 1024 * 1024 * 1024) {}

  /** Bytes a frame of `payloadBytes` bytes of payload takes. */
  public static frameBytes(payloadBytes: number): number {
    return WalFrameCodec.headerBytes + payloadBytes;
  }

  /** Frames `payload`; a string is framed as its UTF-8 bytes, written straight into the frame. */
  public frame(payload: Buffer | string): Buffer {
    const length = typeof payload === 'string' ? Buffer.byteLength(payload, 'utf8') : payload.length;
    if (length === 0 || length > this.maxPayloadBytes) {
      throw new RangeError(`A log record payload must be 1 to ${this.maxPayloadBytes} bytes, not ${length}`);
    }
    const framed = Buffer.allocUnsafe(WalFrameCodec.headerBytes + length);
    framed.writeUInt32LE(length, 0);
    if (typeof payload === 'string') {
      framed.write(payload, WalFrameCodec.headerBytes, 'utf8');
    } else {
      payload.copy(framed, WalFrameCodec.headerBytes);
    }
    framed.writeUInt32LE(WalFrameCodec.checksum(framed, length), 4);
    return framed;
  }

  /** Decodes as many whole frames as `buffer` holds, starting at offset 0. */
  public decode(buffer: Buffer): WalDecodedFrames {
    const payloads: Buffer[] = [];
    let offset = 0;
    while (buffer.length - offset >= WalFrameCodec.headerBytes) {
      const length = buffer.readUInt32LE(offset);
      if (length === 0 || length > this.maxPayloadBytes) {
        return { payloads, consumed: offset, corrupt: true };
      }
      const end = offset + WalFrameCodec.headerBytes + length;
      if (end > buffer.length) {
        break;
      }
      const frame = buffer.subarray(offset, end);
      if (frame.readUInt32LE(4) !== WalFrameCodec.checksum(frame, length)) {
        return { payloads, consumed: offset, corrupt: true };
      }
      payloads.push(frame.subarray(WalFrameCodec.headerBytes));
      offset = end;
    }
    return { payloads, consumed: offset, corrupt: false };
  }

  private static checksum(frame: Buffer, payloadLength: number): number {
    const lengthCrc = crc32(frame.subarray(0, 4));
    return crc32(frame.subarray(WalFrameCodec.headerBytes, WalFrameCodec.headerBytes + payloadLength), lengthCrc);
  }
}
