import { defaultGraph, namedNode, Store } from 'oxigraph';
import type { BlankNode, DefaultGraph, NamedNode } from 'oxigraph';
import type { DatasetOperation, GraphTarget, GraphWriteOperation } from './DatasetOperation';

/** Absolute IRI without characters that could break out of `<...>` in SPARQL. */
const SAFE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|^`\\]*$/u;

/**
 * Applies operations to an Oxigraph store, atomically per operation: an
 * operation either throws without changing the store or is fully applied.
 * That property is what lets the dataset apply first and log afterwards.
 */
export class DatasetOperationApplier {
  public static isSafeIri(iri: string): boolean {
    return SAFE_IRI.test(iri);
  }

  public apply(store: Store, operation: DatasetOperation): void {
    switch (operation.kind) {
      case 'update':
        // Oxigraph runs a whole update request in one transaction.
        store.update(operation.sparql);
        return;
      case 'graphAdd':
        store.load(operation.body, this.loadOptions(operation));
        return;
      case 'graphReplace':
        // Parse into a scratch store first so a bad body fails before the drop.
        new Store().load(operation.body, this.loadOptions(operation));
        store.update(this.dropStatement(operation.target));
        store.load(operation.body, this.loadOptions(operation));
        return;
      case 'graphDrop':
        store.update(this.dropStatement(operation.target));
        return;
    }
  }

  private loadOptions(operation: GraphWriteOperation): {
    format: string;
    base_iri?: string;
    to_graph_name?: BlankNode | DefaultGraph | NamedNode;
  } {
    const target = operation.target;
    return {
      format: operation.format,
      base_iri: operation.baseIri,
      to_graph_name: target.kind === 'named' ? namedNode(this.checkedIri(target.iri)) :
        target.kind === 'default' ? defaultGraph() : undefined,
    };
  }

  private dropStatement(target: GraphTarget): string {
    switch (target.kind) {
      case 'named':
        return `DROP SILENT GRAPH <${this.checkedIri(target.iri)}>`;
      case 'default':
        return 'DROP SILENT DEFAULT';
      case 'dataset':
        return 'DROP SILENT ALL';
    }
  }

  private checkedIri(iri: string): string {
    if (!SAFE_IRI.test(iri)) {
      throw new Error(`Not an absolute IRI: ${iri}`);
    }
    return iri;
  }
}
