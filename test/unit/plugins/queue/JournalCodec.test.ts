import { JournalCodec } from '../../../../src/plugins/queue/JournalCodec';
import type { JournalRecord } from '../../../../src/plugins/queue/JournalRecord';
import { WalFrameCodec } from '../../../../src/storage/wal/WalFrameCodec';

const frames = new WalFrameCodec();
const frame = (record: JournalRecord): Buffer => frames.frame(JournalCodec.encode(record));

describe('JournalCodec', (): void => {
  const records: JournalRecord[] = [
    { t: 'h', v: 1, queue: 'q' },
    { t: 's', id: 'ünïcode ✓' },
    { t: 'u', id: 'x', due: 5, f: 1, i: 0, e: 'boom' },
  ];

  it('round-trips records, including pre-serialized job data', (): void => {
    const buffer = Buffer.concat([
      ...records.map((record): Buffer => frame(record)),
      frames.frame(JournalCodec.encodeAdded('id "quoted"', '{"a":[1,2],"b":"ü"}', 7, 2, 1)),
      frames.frame(JournalCodec.encodeDead('d', 'null', 3, 'err "x"', 9)),
    ]);
    const decoded = JournalCodec.decode(buffer);
    expect(decoded.consumed).toBe(buffer.length);
    expect(decoded.records).toEqual([
      ...records,
      { t: 'a', id: 'id "quoted"', due: 7, f: 2, i: 1, d: { a: [ 1, 2 ], b: 'ü' }},
      { t: 'D', id: 'd', f: 3, e: 'err "x"', at: 9, d: null },
    ]);
  });

  it('stops at a torn record', (): void => {
    const whole = frame(records[1]);
    const torn = frame(records[2]);
    for (let cut = 1; cut < torn.length; cut += 1) {
      const decoded = JournalCodec.decode(Buffer.concat([ whole, torn.subarray(0, cut) ]));
      expect(decoded.records).toEqual([ records[1] ]);
      expect(decoded.consumed).toBe(whole.length);
    }
  });

  it('stops at a flipped bit, in the payload or in the length', (): void => {
    const first = frame(records[1]);
    const second = frame(records[2]);
    const third = frame(records[0]);
    for (const position of [ 0, 2, 5, 10, second.length - 1 ]) {
      const damaged = Buffer.from(second);
      damaged[position] ^= 0x04;
      const decoded = JournalCodec.decode(Buffer.concat([ first, damaged, third ]));
      expect(decoded.records).toEqual([ records[1] ]);
      expect(decoded.consumed).toBe(first.length);
    }
  });

  it('stops at zeros and at a checksum-valid frame that is not a record', (): void => {
    const first = frame(records[1]);
    expect(JournalCodec.decode(Buffer.concat([ first, Buffer.alloc(64) ])).consumed).toBe(first.length);
    expect(JournalCodec.decode(Buffer.concat([ first, frames.frame('[1,2]') ])).records).toHaveLength(1);
    expect(JournalCodec.decode(Buffer.concat([ first, frames.frame('not json') ])).records).toHaveLength(1);
  });
});
