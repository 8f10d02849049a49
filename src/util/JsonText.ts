import { badRequest } from './HttpErrors';

/**
 * Deepest nesting of arrays and objects a JSON body may have. JSON.parse takes any depth, but what
 * comes after it recurses: JSON.stringify (a job's journal record, a Redis job), jsonld.js, the
 * compactor. A webhook body 10,000 levels deep parsed, then threw a RangeError when its job was
 * written. No ActivityStreams, JSON-LD or webhook document of real use comes near 64 levels.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_BRACE = 0x7B;
const OPEN_BRACKET = 0x5B;
const CLOSE_BRACE = 0x7D;
const CLOSE_BRACKET = 0x5D;
const QUOTE = 0x22;
const BACKSLASH = 0x5C;

/**
 * Whether JSON text nests arrays and objects more than `limit` levels deep, brackets inside strings
 * not counted. One linear scan that stops once past the limit; not a validator (JSON.parse is).
 */
export function jsonDepthOver(text: string, limit: number): boolean {
  let depth = 0;
  const length = text.length;
  for (let index = 0; index < length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth > limit) {
        return true;
      }
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
    } else if (code === QUOTE) {
      // To the closing quote, escapes skipped.
      index += 1;
      while (index < length) {
        const inner = text.charCodeAt(index);
        if (inner === BACKSLASH) {
          index += 2;
        } else if (inner === QUOTE) {
          break;
        } else {
          index += 1;
        }
      }
    }
  }
  return false;
}

/**
 * JSON text from a client, parsed: 400 `too_deeply_nested` past `maxDepth` levels, 400 `invalid_json`
 * when it does not parse (with the parser's reason when `detail` is set). Every JSON request body
 * is read through this, before anything else looks at it.
 */
export function parseJsonText(text: string, maxDepth = MAX_JSON_DEPTH, detail = false): unknown {
  if (jsonDepthOver(text, maxDepth)) {
    throw badRequest(`The JSON body is nested more than ${maxDepth} levels deep.`, 'too_deeply_nested');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error: unknown) {
    throw badRequest(detail ? `The body is not valid JSON: ${(error as Error).message}` : 'The body is not valid JSON.', 'invalid_json');
  }
}
