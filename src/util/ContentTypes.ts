/**
 * The media type a file is kept and served with: the sent type, lowercased, with its charset when the
 * client named one (a browser reads an HTML page without a charset as windows-1252, not UTF-8); other
 * parameters are dropped. `mediaType` is the type already parsed from the header.
 */
export function fileContentType(header: string | undefined, mediaType: string): string {
  return withCharset(mediaType, /;\s*charset\s*=\s*"?([\w.:-]+)"?/iu.exec(header ?? '')?.[1]);
}

/** A media type with its charset, in the one form files are stored with. */
export function withCharset(mediaType: string, charset?: string): string {
  return charset ? `${mediaType}; charset=${charset.toLowerCase()}` : mediaType;
}

/** The media type of a stored content type, without parameters. */
export function bareMediaType(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}
