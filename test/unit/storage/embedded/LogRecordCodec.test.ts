import { LogRecordCodec } from '../../../../src/storage/embedded/LogRecordCodec';

describe('LogRecordCodec', (): void => {
  const codec = new LogRecordCodec();
  const framed = Buffer.concat([ codec.frame(Buffer.from('\u0001first')), codec.frame(Buffer.from('\u0001sécond')) ]);

  it('round-trips records', (): void => {
    const decoded = codec.decode(framed);
    expect(decoded.payloads.map((payload): string => payload.toString())).toEqual([ '\u0001first', '\u0001sécond' ]);
    expect(decoded.consumed).toBe(framed.length);
    expect(decoded.corrupt).toBe(false);
  });

  it('stops before an incomplete record without calling it corrupt', (): void => {
    const decoded = codec.decode(framed.subarray(0, framed.length - 3));
    expect(decoded.payloads).toHaveLength(1);
    expect(decoded.corrupt).toBe(false);
  });

  it('detects a flipped byte in the payload and in the length', (): void => {
    const payloadFlip = Buffer.from(framed);
    payloadFlip[framed.length - 2] ^= 0xFF;
    expect(codec.decode(payloadFlip)).toMatchObject({ corrupt: true, payloads: [ expect.anything() ]});
    const lengthFlip = Buffer.from(framed);
    lengthFlip[0] ^= 0x01;
    expect(codec.decode(lengthFlip)).toMatchObject({ corrupt: true, consumed: 0 });
  });

  it('treats zeros as the end, not as an empty record', (): void => {
    const decoded = codec.decode(Buffer.concat([ framed, Buffer.alloc(64) ]));
    expect(decoded.payloads).toHaveLength(2);
    expect(decoded.consumed).toBe(framed.length);
    expect(decoded.corrupt).toBe(true);
  });
});
