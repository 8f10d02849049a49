import { iriEnd, stringEnd } from './RdfLexing';

/** Bodies parsed with recursive parsers, whose nesting is checked before a parser sees them. */
export const NESTED_SYNTAXES = new Set([
  'text/turtle', 'application/n-triples', 'application/n-quads', 'application/trig', 'text/n3', 'application/sparql-update',
]);

/**
 * The deepest bracket nesting (`(`, `[`, `{`) of a Turtle-family or SPARQL text, ignoring brackets
 * inside strings, IRIs and comments. Stops counting once `limit` is passed, so a hostile body costs
 * one linear scan whatever its shape. Approximate where the syntax is ambiguous (a `<` that is a
 * comparison in SPARQL): it only decides whether a body is too deep to hand to a parser.
 */
export function nestingDepthOver(text: string, limit: number): boolean {
  let depth = 0;
  let index = 0;
  const length = text.length;
  while (index < length) {
    const char = text[index];
    switch (char) {
      case '(':
      case '[':
      case '{':
        depth += 1;
        if (depth > limit) {
          return true;
        }
        index += 1;
        break;
      case ')':
      case ']':
      case '}':
        depth = Math.max(0, depth - 1);
        index += 1;
        break;
      case '#': {
        const end = text.indexOf('\n', index);
        index = end < 0 ? length : end + 1;
        break;
      }
      case '<': {
        // An IRI runs to the next '>' without whitespace; otherwise it is an operator.
        index = iriEnd(text, index) ?? index + 1;
        break;
      }
      case '"':
      case '\'':
        // An unterminated short string ends at its line: the parser reports it.
        index = stringEnd(text, index).index;
        break;
      default:
        index += 1;
    }
  }
  return false;
}
