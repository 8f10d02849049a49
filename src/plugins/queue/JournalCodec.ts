import { crc32 } from 'node:zlib';
import type { JournalRecord } from './JournalRecord';

const HEADER_BYTES = 8;
const MAX_PAYLOAD_BYTES = 512 * 1024 * 1024;

/** Outcome of scanning a journal file. */
export interface DecodedJournal {
  /** Every complete, checksum-valid record, in order. */
  readonly records: JournalRecord[];
  /** Bytes those records take; anything after is a torn or corrupt tail. */
  readonly consumed: number;
}

/**
 * Frames journal records as [u32 length][u32 crc32(length bytes + payload)][JSON payload].
 * The checksum covers the length too, so a zero-filled or torn tail (what a crash in
 * the middle of an append leaves) is recognised and cut off rather than replayed.
 *
 * Job data is carried as JSON text and spliced into the payload as is, so a job's
 * data is serialized once, when it is added.
 */
export class JournalCodec {
  public static frame(record: JournalRecord): Buffer {
    return JournalCodec.framePayload(JSON.stringify(record));
  }

  /** A pending job (`a`) whose data is already JSON text. */
  public static frameAdded(id: string, dataJson: string, due: number, failures: number, interruptions: number): Buffer {
    return JournalCodec.framePayload(
      `{"t":"a","id":${JSON.stringify(id)},"due":${due},"f":${failures},"i":${interruptions},"d":${dataJson}}`,
    );
  }

  /** A dead letter (`D`) whose data is already JSON text. */
  public static frameDead(id: string, dataJson: string, failures: number, error: string, at: number): Buffer {
    return JournalCodec.framePayload(
      `{"t":"D","id":${JSON.stringify(id)},"f":${failures},"e":${JSON.stringify(error)},"at":${at},"d":${dataJson}}`,
    );
  }

  public static framePayload(json: string): Buffer {
    const length = Buffer.byteLength(json, 'utf8');
    const framed = Buffer.allocUnsafe(HEADER_BYTES + length);
    framed.writeUInt32LE(length, 0);
    framed.write(json, HEADER_BYTES, 'utf8');
    framed.writeUInt32LE(JournalCodec.checksum(framed, length), 4);
    return framed;
  }

  /** Decodes records from the start of `buffer` up to the first incomplete or invalid one. */
  public static decode(buffer: Buffer): DecodedJournal {
    const records: JournalRecord[] = [];
    let offset = 0;
    while (buffer.length - offset >= HEADER_BYTES) {
      const length = buffer.readUInt32LE(offset);
      // A payload is never empty, so a zero length is never-written (zeroed) space.
      if (length === 0 || length > MAX_PAYLOAD_BYTES) {
        break;
      }
      const end = offset + HEADER_BYTES + length;
      if (end > buffer.length) {
        break;
      }
      const frame = buffer.subarray(offset, end);
      if (frame.readUInt32LE(4) !== JournalCodec.checksum(frame, length)) {
        break;
      }
      let record: JournalRecord;
      try {
        record = JSON.parse(frame.toString('utf8', HEADER_BYTES)) as JournalRecord;
      } catch {
        break;
      }
      if (typeof record !== 'object' || record === null || typeof record.t !== 'string') {
        break;
      }
      records.push(record);
      offset = end;
    }
    return { records, consumed: offset };
  }

  private static checksum(frame: Buffer, payloadLength: number): number {
    return crc32(frame.subarray(HEADER_BYTES, HEADER_BYTES + payloadLength), crc32(frame.subarray(0, 4)));
  }
}
