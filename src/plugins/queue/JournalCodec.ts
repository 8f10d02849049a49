import { WalFrameCodec } from '../../storage/wal/WalFrameCodec';
import type { JournalRecord } from './JournalRecord';

/** Outcome of scanning a journal file. */
export interface DecodedJournal {
  /** Every complete, checksum-valid record, in order. */
  readonly records: JournalRecord[];
  /** Bytes those records take; anything after is a torn or corrupt tail. */
  readonly consumed: number;
}

const FRAMES = new WalFrameCodec();

/**
 * Journal records as log payloads: one JSON object each (the log frames and checksums them,
 * see WalFrameCodec).
 *
 * Job data is carried as JSON text and spliced into the payload as is, so a job's
 * data is serialized once, when it is added.
 */
export class JournalCodec {
  public static encode(record: JournalRecord): string {
    return JSON.stringify(record);
  }

  /** A pending job (`a`) whose data is already JSON text. */
  public static encodeAdded(id: string, dataJson: string, due: number, failures: number, interruptions: number): string {
    return `{"t":"a","id":${JSON.stringify(id)},"due":${due},"f":${failures},"i":${interruptions},"d":${dataJson}}`;
  }

  /** A dead letter (`D`) whose data is already JSON text. */
  public static encodeDead(id: string, dataJson: string, failures: number, error: string, at: number): string {
    return `{"t":"D","id":${JSON.stringify(id)},"f":${failures},"e":${JSON.stringify(error)},"at":${at},"d":${dataJson}}`;
  }

  /** The record a payload holds, or undefined if it holds none (the journal ends before it). */
  public static parse(payload: Buffer): JournalRecord | undefined {
    let record: JournalRecord;
    try {
      record = JSON.parse(payload.toString('utf8')) as JournalRecord;
    } catch {
      return undefined;
    }
    if (typeof record !== 'object' || record === null || typeof record.t !== 'string') {
      return undefined;
    }
    return record;
  }

  /** Decodes a journal file's bytes up to the first incomplete or invalid record. */
  public static decode(buffer: Buffer): DecodedJournal {
    const records: JournalRecord[] = [];
    let consumed = 0;
    for (const payload of FRAMES.decode(buffer).payloads) {
      const record = JournalCodec.parse(payload);
      if (!record) {
        break;
      }
      records.push(record);
      consumed += WalFrameCodec.frameBytes(payload.length);
    }
    return { records, consumed };
  }
}
