import { WalFrameCodec } from '../../../../src/storage/wal/WalFrameCodec';

describe('WalFrameCodec', (): void => {
  const codec = new WalFrameCodec();
  const first = codec.frame(Buffer.from('\u0001first'));
  const second = codec.frame('{"t":"s","id":"sécond"}');
  const framed = Buffer.concat([ first, second ]);
  const texts = (payloads: Buffer[]): string[] => payloads.map((payload): string => payload.toString('utf8'));

  it('round-trips buffer and string payloads, a string as its UTF-8 bytes', (): void => {
    const decoded = codec.decode(framed);
    expect(texts(decoded.payloads)).toEqual([ '\u0001first', '{"t":"s","id":"sécond"}' ]);
    expect(decoded).toMatchObject({ consumed: framed.length, corrupt: false });
    expect(second).toEqual(codec.frame(Buffer.from('{"t":"s","id":"sécond"}', 'utf8')));
    expect(second).toHaveLength(WalFrameCodec.frameBytes(Buffer.byteLength('{"t":"s","id":"sécond"}')));
  });

  it('reads and writes the frames both logs wrote before they shared this codec', (): void => {
    // A queue journal's header record and an update log's SPARQL update, as written then.
    const journalHeader = Buffer.from(
      '220000005c9054cc7b2274223a2268222c2276223a312c227175657565223a22776562686f6f6b73227d', 'hex',
    );
    const updateRecord = Buffer.from(
      '43000000d62ede5201494e534552542044415441207b203c687474703a2f2f6578616d706c652e6f72672f733e203c687474703a2f2f' +
      '6578616d706c652e6f72672f703e2022c3a922207d', 'hex',
    );
    const decoded = codec.decode(Buffer.concat([ journalHeader, updateRecord ]));
    expect(decoded.corrupt).toBe(false);
    expect(decoded.consumed).toBe(journalHeader.length + updateRecord.length);
    expect(decoded.payloads[0].toString('utf8')).toBe('{"t":"h","v":1,"queue":"webhooks"}');
    expect(decoded.payloads[1][0]).toBe(1);
    expect(decoded.payloads[1].toString('utf8', 1)).toBe('INSERT DATA { <http://example.org/s> <http://example.org/p> "é" }');
    expect(codec.frame(decoded.payloads[0])).toEqual(journalHeader);
    expect(codec.frame(decoded.payloads[1])).toEqual(updateRecord);
  });

  it('stops before a torn last frame, at every cut, without calling it corrupt', (): void => {
    for (let cut = 1; cut < second.length; cut += 1) {
      const decoded = codec.decode(Buffer.concat([ first, second.subarray(0, cut) ]));
      expect(texts(decoded.payloads)).toEqual([ '\u0001first' ]);
      expect(decoded).toMatchObject({ consumed: first.length, corrupt: false });
    }
  });

  it('calls a checksum mismatch corrupt, in the length, the checksum or the payload', (): void => {
    // Byte 0 turns the length of 24 into 8.
    for (const position of [ 0, 4, 7, 8, second.length - 1 ]) {
      const damaged = Buffer.from(second);
      damaged[position] ^= 0x10;
      const decoded = codec.decode(Buffer.concat([ first, damaged, first ]));
      expect(texts(decoded.payloads)).toEqual([ '\u0001first' ]);
      expect(decoded).toMatchObject({ consumed: first.length, corrupt: true });
    }
    // A length grown past the end of the data cannot be checked: it looks like a torn frame.
    const longer = Buffer.from(second);
    longer[1] ^= 0x10;
    expect(codec.decode(Buffer.concat([ first, longer, first ]))).toMatchObject({ consumed: first.length, corrupt: false });
  });

  it('takes zeros for the end, not for an empty record', (): void => {
    const decoded = codec.decode(Buffer.concat([ framed, Buffer.alloc(64) ]));
    expect(decoded.payloads).toHaveLength(2);
    expect(decoded).toMatchObject({ consumed: framed.length, corrupt: true });
  });

  it('refuses payloads it could not read back, and lengths past its limit', (): void => {
    const small = new WalFrameCodec(16);
    expect((): Buffer => small.frame('')).toThrow(RangeError);
    expect((): Buffer => small.frame('x'.repeat(17))).toThrow(RangeError);
    expect(small.decode(codec.frame('y'.repeat(17)))).toMatchObject({ consumed: 0, corrupt: true, payloads: []});
    expect(small.decode(small.frame('y'.repeat(16))).payloads).toHaveLength(1);
  });
});
