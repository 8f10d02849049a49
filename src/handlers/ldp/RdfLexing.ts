/**
 * Skipping over the tokens of Turtle-family and SPARQL text that may hold brackets and `#` without
 * meaning them (IRIs, string literals), for the scans that only look for a body's structure.
 */

const IRI = /^<[^<>"{}|^`\\\s]*>/u;

/** The index just after the IRI that starts at `index` (`<...>` without whitespace), or undefined when `<` starts none. */
export function iriEnd(text: string, index: number): number | undefined {
  const match = IRI.exec(text.slice(index, index + 4096));
  return match ? index + match[0].length : undefined;
}

/**
 * Where the string literal starting at `start` ends (short or long form, with escapes): the index
 * just after it, and whether it was closed (a short string ends at a line break, unclosed).
 */
export function stringEnd(text: string, start: number): { index: number; closed: boolean } {
  const quote = text[start];
  const long = text.startsWith(quote.repeat(3), start);
  const close = long ? quote.repeat(3) : quote;
  let index = start + close.length;
  while (index < text.length) {
    if (text[index] === '\\') {
      index += 2;
    } else if (text.startsWith(close, index)) {
      return { index: index + close.length, closed: true };
    } else if (!long && (text[index] === '\n' || text[index] === '\r')) {
      return { index, closed: false };
    } else {
      index += 1;
    }
  }
  return { index, closed: false };
}
