import sharp from 'sharp';
import { processImage, sniffType } from '../../../../src/plugins/media/MediaProcessing';

const OPTIONS = { maxPixels: 10_000, thumbnailSize: 20 };

describe('MediaProcessing', (): void => {
  it('knows accepted types by their first bytes only', (): void => {
    const ascii = (text: string): Buffer => Buffer.from(text, 'latin1');
    expect(sniffType(Buffer.from([ 0xFF, 0xD8, 0xFF, 0xE0 ]))?.mediaType).toBe('image/jpeg');
    expect(sniffType(Buffer.from([ 0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A ]))?.mediaType).toBe('image/png');
    expect(sniffType(ascii('GIF89a......'))?.mediaType).toBe('image/gif');
    expect(sniffType(ascii('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))?.mediaType).toBe('image/webp');
    expect(sniffType(ascii('RIFF\u0000\u0000\u0000\u0000WAVEfmt '))).toMatchObject({ mediaType: 'audio/wav', kind: 'audio' });
    expect(sniffType(ascii('\u0000\u0000\u0000\u0018ftypisom'))).toMatchObject({ mediaType: 'video/mp4', kind: 'video' });
    expect(sniffType(ascii('\u0000\u0000\u0000\u0018ftypavif'))?.mediaType).toBe('image/avif');
    expect(sniffType(ascii('\u0000\u0000\u0000\u0018ftypM4A '))?.mediaType).toBe('audio/mp4');
    expect(sniffType(Buffer.from([ 0x1A, 0x45, 0xDF, 0xA3, 0 ]))?.mediaType).toBe('video/webm');
    expect(sniffType(ascii('OggS\u0000'))?.mediaType).toBe('audio/ogg');
    expect(sniffType(ascii('ID3\u0004'))?.mediaType).toBe('audio/mpeg');
    expect(sniffType(ascii('fLaC'))?.mediaType).toBe('audio/flac');
    for (const other of [ '<html>', '%PDF-1.7', 'PK\u0003\u0004', '\u0000\u0000\u0000\u0018ftypheic', '' ]) {
      expect(sniffType(ascii(other))).toBeUndefined();
    }
  });

  it('re-encodes an image upright and without metadata, with a thumbnail and a blurhash', async(): Promise<void> => {
    const input = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#ff0000' } }).jpeg()
      .withExif({ IFD0: { Copyright: 'somewhere secret' } }).withMetadata({ orientation: 6 }).toBuffer();
    const image = await processImage(input, sniffType(input)!, OPTIONS);
    expect(image).toMatchObject({ width: 20, height: 40, smallWidth: 10, smallHeight: 20, smallType: 'image/jpeg' });
    expect(image.blurhash).toHaveLength(4 + 2 * 4 * 3);
    const stored = await sharp(image.original).metadata();
    expect(stored).toMatchObject({ format: 'jpeg', width: 20, height: 40 });
    expect(stored.exif).toBeUndefined();
    expect(image.original.includes('somewhere secret')).toBe(false);
  });

  it('refuses too many pixels before decoding, an image of another format than sniffed, and bytes that do not decode', async(): Promise<void> => {
    const large = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#000' } }).png().toBuffer();
    await expect(processImage(large, sniffType(large)!, OPTIONS)).rejects.toThrow(/more than 10000 pixels/u);
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).png().toBuffer();
    await expect(processImage(png, { mediaType: 'image/gif', kind: 'image', extension: 'gif' }, OPTIONS))
      .rejects.toMatchObject({ statusCode: 422 });
    const truncated = (await sharp({ create: { width: 50, height: 50, channels: 3, background: '#0f0' } }).jpeg().toBuffer()).subarray(0, 200);
    await expect(processImage(truncated, sniffType(truncated)!, OPTIONS)).rejects.toMatchObject({ statusCode: 422 });
  });
});
