/** The four SPARQL query forms; graph forms need RDF serializations, the others results formats. */
export type SparqlQueryForm = 'SELECT' | 'ASK' | 'CONSTRUCT' | 'DESCRIBE';

const FORMS = new Set<string>([ 'SELECT', 'ASK', 'CONSTRUCT', 'DESCRIBE' ]);

/**
 * Finds the query form by skipping the prologue (comments, BASE, PREFIX) and
 * reading the next keyword. The form decides the response format, which Oxigraph
 * must be told before it runs the query; a full parse just for that would double
 * the cost of every query. Returns undefined when unsure; the caller then lets
 * Oxigraph decide.
 */
export class SparqlQueryFormSniffer {
  public sniff(query: string): SparqlQueryForm | undefined {
    let index = 0;
    for (;;) {
      index = this.skipBlank(query, index);
      const start = index;
      while (index < query.length && this.isLetter(query.charCodeAt(index))) {
        index += 1;
      }
      const keyword = query.slice(start, index).toUpperCase();
      if (FORMS.has(keyword)) {
        return keyword as SparqlQueryForm;
      }
      if (keyword === 'PREFIX') {
        // The prefix name, up to and including its colon.
        index = this.skipBlank(query, index);
        const colon = query.indexOf(':', index);
        if (colon < 0) {
          return undefined;
        }
        index = colon + 1;
      } else if (keyword !== 'BASE') {
        return undefined;
      }
      index = this.skipBlank(query, index);
      if (query.charCodeAt(index) !== 0x3C) {
        return undefined;
      }
      const close = query.indexOf('>', index);
      if (close < 0) {
        return undefined;
      }
      index = close + 1;
    }
  }

  private skipBlank(query: string, from: number): number {
    let index = from;
    while (index < query.length) {
      const code = query.charCodeAt(index);
      if (code === 0x23) {
        // A '#' comment runs to the end of the line.
        const newline = query.indexOf('\n', index);
        index = newline < 0 ? query.length : newline + 1;
      } else if (code === 0x20 || code === 0x09 || code === 0x0A || code === 0x0D) {
        index += 1;
      } else {
        break;
      }
    }
    return index;
  }

  private isLetter(code: number): boolean {
    return (code >= 0x41 && code <= 0x5A) || (code >= 0x61 && code <= 0x7A);
  }
}
