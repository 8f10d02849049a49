import type { Quad } from '@rdfjs/types';
import { FEDPOD_FILE } from '../storage/StoreVocabulary';

/** The name ResourceFiles gives a file: anything else is never read or written as a path. */
const FILE_NAME = /^[0-9a-f]{32}$/u;

/**
 * What a stream of quads holds, counted as it passes: quads, graphs, quads of the default graph,
 * quads with blank nodes, and the files of non-RDF resources named by their metadata. Export and
 * import both count the same way, so that their numbers can be compared.
 */
export class ExportTally {
  public quads = 0;
  public defaultGraphQuads = 0;
  public blankNodeQuads = 0;
  public readonly graphs = new Set<string>();
  public readonly files = new Set<string>();
  /** File names in `fedpod:file` quads that are not names ResourceFiles makes. */
  public readonly badFileNames = new Set<string>();
  /** Graphs in which blank nodes occur. */
  public readonly blankNodeGraphs = new Set<string>();
  /** Each blank node label with the first graph it was seen in. */
  private readonly labels = new Map<string, string>();
  /** Blank node labels seen in more than one graph. */
  public readonly sharedLabels = new Set<string>();

  public add(entry: Quad): void {
    this.quads += 1;
    const graph = entry.graph.termType === 'DefaultGraph' ? '' : entry.graph.value;
    if (graph === '') {
      this.defaultGraphQuads += 1;
    } else {
      this.graphs.add(graph);
    }
    let blank = false;
    for (const term of [ entry.subject, entry.object ]) {
      if (term.termType === 'BlankNode') {
        blank = true;
        const first = this.labels.get(term.value);
        if (first === undefined) {
          this.labels.set(term.value, graph);
        } else if (first !== graph) {
          this.sharedLabels.add(term.value);
        }
      }
    }
    if (blank) {
      this.blankNodeQuads += 1;
      this.blankNodeGraphs.add(graph);
    }
    if (entry.predicate.value === FEDPOD_FILE && entry.object.termType === 'Literal') {
      (FILE_NAME.test(entry.object.value) ? this.files : this.badFileNames).add(entry.object.value);
    }
  }
}
