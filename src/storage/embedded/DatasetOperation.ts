/**
 * The state-changing operations a dataset accepts. Both the live path and log
 * replay apply exactly these, so what is logged is what was applied.
 */

/** Which part of the dataset a Graph Store Protocol operation addresses. */
export type GraphTarget =
  | { readonly kind: 'default' }
  | { readonly kind: 'named'; readonly iri: string }
  | { readonly kind: 'dataset' };

export interface SparqlUpdateOperation {
  readonly kind: 'update';
  readonly sparql: string;
}

/** Graph Store Protocol write: POST adds, PUT replaces, DELETE drops. */
export interface GraphWriteOperation {
  readonly kind: 'graphAdd' | 'graphReplace';
  readonly target: GraphTarget;
  /** Media type understood by Oxigraph (e.g. text/turtle). */
  readonly format: string;
  readonly baseIri?: string;
  readonly body: Buffer;
}

export interface GraphDropOperation {
  readonly kind: 'graphDrop';
  readonly target: GraphTarget;
}

export type DatasetOperation = SparqlUpdateOperation | GraphWriteOperation | GraphDropOperation;
