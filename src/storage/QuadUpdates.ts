import type { NamedNode, Quad } from '@rdfjs/types';
import { sparqlGraphBlock, sparqlIri, sparqlTriple } from './SparqlTerms';

/** Quads grouped by graph, in the order their graphs first appear; the default graph's under ''. */
function byGraph(quads: readonly Quad[]): Map<string, Quad[]> {
  const groups = new Map<string, Quad[]>();
  for (const entry of quads) {
    const key = entry.graph.termType === 'DefaultGraph' ? '' : entry.graph.value;
    const group = groups.get(key);
    if (group) {
      group.push(entry);
    } else {
      groups.set(key, [ entry ]);
    }
  }
  return groups;
}

function hasBlankNode(entry: Quad): boolean {
  return entry.subject.termType === 'BlankNode' || entry.object.termType === 'BlankNode';
}

/**
 * One SPARQL update adding `quads`, each in its own graph. `INSERT DATA` as a rule; when a blank
 * node is among them, `INSERT { … } WHERE {}` instead (Virtuoso refuses blank nodes in INSERT
 * DATA), where each label stands for one new node throughout the request. Every term goes
 * through SparqlTerms.
 */
export function insertUpdateOf(quads: readonly Quad[]): string {
  const blocks: string[] = [];
  for (const [ graph, group ] of byGraph(quads)) {
    blocks.push(graph === '' ?
      group.map(sparqlTriple).join(' ') :
      sparqlGraphBlock(group[0].graph as NamedNode, group));
  }
  return quads.some(hasBlankNode) ? `INSERT { ${blocks.join(' ')} } WHERE {}` : `INSERT DATA { ${blocks.join(' ')} }`;
}

/** `VALUES ?g { <a> <b> … }`: the graphs a query or update is limited to. */
export function graphValuesOf(graphs: readonly string[]): string {
  return `VALUES ?g { ${graphs.map(sparqlIri).join(' ')} }`;
}
