import type { BlankNode, NamedNode, Store } from 'oxigraph';
import { defaultGraph } from 'oxigraph';
import { messageOf } from '../../util/Errors';

/** Pieces of a graph-by-graph dump are joined up to about this many characters. */
const PIECE_CHARS = 16 * 1024 * 1024;

/** V8 makes no string over 2^29 - 24 characters; Oxigraph's dump of a larger store fails with this. */
function isStringLimit(error: unknown): boolean {
  return /string longer than|Invalid string length/u.test(messageOf(error));
}

/**
 * The whole store as N-Quads, in pieces to write one after the other: one piece, Oxigraph's dump,
 * while the dataset fits in one JavaScript string (512 MiB, about two million quads); past that,
 * graph by graph (about three times as long), so a large store still gets its snapshot instead of
 * a log that grows without end. Synchronous, so the pieces are one consistent state. Once a store
 * was too large for one string, later dumps go graph by graph at once (a failed attempt at 2.3
 * million quads cost 18 s).
 */
export class SnapshotDump {
  private tooLargeForOneString = false;

  public of(store: Store): string[] {
    if (!this.tooLargeForOneString) {
      try {
        return [ store.dump({ format: 'application/n-quads' }) ];
      } catch (error: unknown) {
        if (!isStringLimit(error)) {
          throw error;
        }
        this.tooLargeForOneString = true;
      }
    }
    return this.byGraph(store);
  }

  private byGraph(store: Store): string[] {
    const pieces: string[] = [];
    let current: string[] = [];
    let length = 0;
    const add = (text: string): void => {
      current.push(text);
      length += text.length;
      if (length >= PIECE_CHARS) {
        pieces.push(current.join(''));
        current = [];
        length = 0;
      }
    };
    add(store.dump({ format: 'application/n-triples', from_graph_name: defaultGraph() }));
    const graphs = store.query('SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }') as Map<string, NamedNode | BlankNode>[];
    for (const binding of graphs) {
      const graph = binding.get('g')!;
      // Each N-Triples statement ends its line with " ." (a line break inside a literal is escaped),
      // so naming the graph there makes the line an N-Quads statement of that graph.
      add(store.dump({ format: 'application/n-triples', from_graph_name: graph }).replaceAll(' .\n', ` ${graph.toString()} .\n`));
    }
    if (current.length > 0) {
      pieces.push(current.join(''));
    }
    return pieces;
  }
}
