/** Small media files made on the spot, for tests that upload them. */

/** A tenth of a second of a 440 Hz tone as a WAV file (16-bit mono, 8 kHz). */
export function wavTone(): Buffer {
  const samples = 800;
  const data = Buffer.alloc(samples * 2);
  for (let index = 0; index < samples; index++) {
    data.writeInt16LE(Math.round(Math.sin(2 * Math.PI * 440 * index / 8000) * 8000), index * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([ header, data ]);
}
