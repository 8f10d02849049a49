/** JSON text of arrays nested `depth` levels deep around `inner` (a hostile body: JSON.stringify of it overflows the stack). */
export function deepJsonText(depth: number, inner = '1'): string {
  return `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
}

/** A value nested `depth` levels deep, as a parsed hostile body would be. */
export function deepValue(depth: number): unknown {
  return JSON.parse(deepJsonText(depth)) as unknown;
}
