import { encode } from 'blurhash';
import sharp from 'sharp';
import { FedpodHttpError } from '../../util/HttpErrors';

/** The kinds of media Mastodon takes. */
export type MediaKind = 'image' | 'video' | 'audio';

/** A media type the server accepts, known from the file's first bytes. */
export interface SniffedType {
  mediaType: string;
  kind: MediaKind;
  /** File name extension of the stored file. */
  extension: string;
}

/** How many first bytes sniffing needs. */
export const SNIFF_BYTES = 16;

/**
 * The file's type from its first bytes (magic numbers), never from what the client declares:
 * the image types Mastodon accepts (JPEG, PNG, GIF, WebP, AVIF), MP4, QuickTime and WebM video,
 * MP3, Ogg, WAV, FLAC and M4A audio; undefined for anything else.
 */
export function sniffType(head: Buffer): SniffedType | undefined {
  const ascii = (start: number, end: number): string => head.subarray(start, end).toString('latin1');
  if (head[0] === 0xFF && head[1] === 0xD8 && head[2] === 0xFF) {
    return { mediaType: 'image/jpeg', kind: 'image', extension: 'jpg' };
  }
  if (head.subarray(0, 8).equals(Buffer.from([ 0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A ]))) {
    return { mediaType: 'image/png', kind: 'image', extension: 'png' };
  }
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') {
    return { mediaType: 'image/gif', kind: 'image', extension: 'gif' };
  }
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') {
    return { mediaType: 'image/webp', kind: 'image', extension: 'webp' };
  }
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') {
    return { mediaType: 'audio/wav', kind: 'audio', extension: 'wav' };
  }
  if (ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (brand === 'avif' || brand === 'avis') {
      return { mediaType: 'image/avif', kind: 'image', extension: 'avif' };
    }
    if (brand === 'M4A ') {
      return { mediaType: 'audio/mp4', kind: 'audio', extension: 'm4a' };
    }
    if (brand === 'qt  ') {
      return { mediaType: 'video/quicktime', kind: 'video', extension: 'mov' };
    }
    if ([ 'isom', 'iso2', 'mp41', 'mp42', 'avc1', 'M4V ', 'dash' ].includes(brand)) {
      return { mediaType: 'video/mp4', kind: 'video', extension: 'mp4' };
    }
    return undefined;
  }
  if (head.subarray(0, 4).equals(Buffer.from([ 0x1A, 0x45, 0xDF, 0xA3 ]))) {
    return { mediaType: 'video/webm', kind: 'video', extension: 'webm' };
  }
  if (ascii(0, 4) === 'OggS') {
    return { mediaType: 'audio/ogg', kind: 'audio', extension: 'ogg' };
  }
  if (ascii(0, 4) === 'fLaC') {
    return { mediaType: 'audio/flac', kind: 'audio', extension: 'flac' };
  }
  // MP3: an ID3 tag, or a frame sync (11 bits set) of MPEG-1/2 layer III.
  if (ascii(0, 3) === 'ID3' || (head[0] === 0xFF && (head[1] & 0xE6) === 0xE2)) {
    return { mediaType: 'audio/mpeg', kind: 'audio', extension: 'mp3' };
  }
  return undefined;
}

/** The format sharp reads from the file, for each image type sniffed. */
const SHARP_FORMATS: Record<string, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'heif',
};

/** What re-encoding an image gives: the stored original, its thumbnail and what describes them. */
export interface ProcessedImage {
  original: Buffer;
  small: Buffer;
  smallType: string;
  width: number;
  height: number;
  smallWidth: number;
  smallHeight: number;
  blurhash: string;
}

/** Limits and sizes of image processing. */
export interface ImageOptions {
  /** Most pixels (width × height) an image may declare: more is refused before it is decoded. */
  maxPixels: number;
  /** Width and height the thumbnail fits in. */
  thumbnailSize: number;
}

export function unprocessableMedia(message: string): FedpodHttpError {
  return new FedpodHttpError(422, 'unprocessable_entity', message);
}

/**
 * Decodes and re-encodes an image in its own format: the orientation its EXIF gives is applied to
 * the pixels, and nothing of its metadata (EXIF, GPS location, XMP, comments, trailing data) is
 * written back; a thumbnail and a blurhash are made from the same pixels. An image whose header
 * declares more than `maxPixels` is refused before decoding (a decompression bomb), as is one that
 * does not decode (a polyglot, a truncated or forged file): 422.
 */
export async function processImage(input: Buffer, type: SniffedType, options: ImageOptions): Promise<ProcessedImage> {
  const animated = type.mediaType === 'image/gif' || type.mediaType === 'image/webp';
  let declared: sharp.Metadata;
  try {
    // The header only, whatever size it declares: the size is checked below, with a clear answer.
    declared = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw unprocessableMedia('The file is not an image this server can read.');
  }
  if (SHARP_FORMATS[type.mediaType] !== declared.format) {
    throw unprocessableMedia('The image is not of the type its first bytes say.');
  }
  const frameHeight = declared.pageHeight ?? declared.height ?? 0;
  if ((declared.width ?? 0) * (declared.height ?? 0) > options.maxPixels) {
    throw unprocessableMedia(`The image has more than ${options.maxPixels} pixels.`);
  }
  try {
    const source = sharp(input, { limitInputPixels: options.maxPixels, animated, failOn: 'error' }).rotate();
    const original = await reencode(source.clone(), type).toBuffer({ resolveWithObject: true });
    const thumbnail = sharp(input, { limitInputPixels: options.maxPixels, failOn: 'error' }).rotate()
      .resize(options.thumbnailSize, options.thumbnailSize, { fit: 'inside', withoutEnlargement: true });
    const small = await thumbnail.clone().jpeg({ quality: 80, mozjpeg: false }).toBuffer({ resolveWithObject: true });
    const pixels = await sharp(small.data).resize(32, 32, { fit: 'inside' }).ensureAlpha().raw()
      .toBuffer({ resolveWithObject: true });
    return {
      original: original.data,
      small: small.data,
      smallType: 'image/jpeg',
      width: original.info.width,
      height: animated ? original.info.pageHeight ?? frameHeight : original.info.height,
      smallWidth: small.info.width,
      smallHeight: small.info.height,
      blurhash: encode(new Uint8ClampedArray(pixels.data), pixels.info.width, pixels.info.height, 4, 3),
    };
  } catch (error: unknown) {
    throw unprocessableMedia(`The image could not be decoded: ${(error as Error).message}`);
  }
}

/** The image written again in its own format, metadata left out (sharp keeps none unless told). */
function reencode(image: sharp.Sharp, type: SniffedType): sharp.Sharp {
  switch (type.mediaType) {
    case 'image/png':
      return image.png();
    case 'image/gif':
      return image.gif();
    case 'image/webp':
      return image.webp({ quality: 90 });
    case 'image/avif':
      return image.avif();
    default:
      return image.jpeg({ quality: 90 });
  }
}
