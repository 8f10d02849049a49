import { badRequest } from '../../util/HttpErrors';

export interface QueryComplexityLimits {
  /** Deepest nesting of the parse tree (groups, subqueries, expressions, paths). */
  maxDepth: number;
  /** Triple patterns in the whole query (the store's join planner is exponential in them). */
  maxTriplePatterns: number;
  /** Nodes of the parse tree (patterns, expressions and terms). */
  maxNodes: number;
}

/**
 * Well above what hand-written and generated queries use, well below what breaks the embedded store:
 * its engine recurses over the query with a fixed-size stack, and a query a few hundred levels deep
 * (or a few hundred BINDs, or thousands of FILTERs) overflows it and leaves the engine unusable;
 * 200 triple patterns keep it busy for seconds.
 */
export const DEFAULT_QUERY_LIMITS: QueryComplexityLimits = { maxDepth: 64, maxTriplePatterns: 64, maxNodes: 2000 };

/**
 * Measures a parsed query (sparqljs JSON) and refuses one over the limits with 400 `query_too_complex`.
 * Walks with an explicit stack, so a pathological parse cannot overflow this check either.
 */
export function refuseTooComplex(parsed: unknown, limits: QueryComplexityLimits = DEFAULT_QUERY_LIMITS): void {
  let nodes = 0;
  let triples = 0;
  const stack: [unknown, number][] = [[ parsed, 0 ]];
  while (stack.length > 0) {
    const [ node, depth ] = stack.pop()!;
    if (typeof node !== 'object' || node === null) {
      continue;
    }
    if (depth > limits.maxDepth) {
      throw badRequest(`The query is nested too deeply (over ${limits.maxDepth} levels).`, 'query_too_complex');
    }
    if (Array.isArray(node)) {
      for (const child of node) {
        stack.push([ child, depth ]);
      }
      continue;
    }
    nodes += 1;
    if (nodes > limits.maxNodes) {
      throw badRequest(`The query is too large (over ${limits.maxNodes} patterns, expressions and terms).`, 'query_too_complex');
    }
    const record = node as Record<string, unknown>;
    if ('subject' in record && 'predicate' in record && 'object' in record) {
      triples += 1;
      if (triples > limits.maxTriplePatterns) {
        throw badRequest(`The query has too many triple patterns (over ${limits.maxTriplePatterns}).`, 'query_too_complex');
      }
    }
    for (const value of Object.values(record)) {
      stack.push([ value, depth + 1 ]);
    }
  }
}
