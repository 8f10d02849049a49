import { randomUUID } from 'node:crypto';
import type { Quad, Quad_Object, Quad_Subject } from '@rdfjs/types';
import { DataFactory } from 'n3';

const { namedNode, blankNode, quad } = DataFactory;

/**
 * Replaces blank nodes with well-known genid IRIs before they reach the store, and turns those
 * IRIs back into blank nodes on the way out (RDF 1.1 §3.5 skolemisation).
 *
 * Why: Virtuoso refuses blank nodes in INSERT DATA, and blank nodes cannot be addressed by later
 * DELETE DATA / graph reads in a portable way. Labels are fresh per write, so two writes never share one.
 */
export class Skolemizer {
  private readonly prefix: string;

  public constructor(baseUrl: string) {
    this.prefix = `${baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`}.well-known/genid/`;
  }

  public skolemize(quads: readonly Quad[]): Quad[] {
    const labels = new Map<string, string>();
    const map = <T extends Quad_Subject | Quad_Object>(term: T): T => {
      if (term.termType !== 'BlankNode') {
        return term;
      }
      let iri = labels.get(term.value);
      if (!iri) {
        iri = `${this.prefix}${randomUUID()}`;
        labels.set(term.value, iri);
      }
      return namedNode(iri) as unknown as T;
    };
    return quads.map((entry): Quad => quad(map(entry.subject), entry.predicate, map(entry.object), entry.graph));
  }

  public deskolemize(quads: readonly Quad[]): Quad[] {
    const map = <T extends Quad_Subject | Quad_Object>(term: T): T => {
      if (term.termType === 'NamedNode' && term.value.startsWith(this.prefix)) {
        // Hex keeps any suffix (clients can post such IRIs too) a valid, collision-free label.
        return blankNode(`g${Buffer.from(term.value.slice(this.prefix.length)).toString('hex')}`) as unknown as T;
      }
      return term;
    };
    return quads.map((entry): Quad => quad(map(entry.subject), entry.predicate, map(entry.object), entry.graph));
  }
}
