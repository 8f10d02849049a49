import { Readable } from 'node:stream';
import type { Quad, Term } from '@rdfjs/types';
import type { HttpRequest, Patch, SparqlUpdatePatch } from '@solid/community-server';
import {
  BasicRepresentation,
  N3PatchBodyParser,
  N3Patcher,
  NotImplementedHttpError,
  RepresentationMetadata,
  SparqlUpdateBodyParser,
  SparqlUpdatePatcher,
} from '@solid/community-server';
import { DataFactory, type Store } from 'n3';
import type { AccessMode } from '../../plugins/ldp/WebAclAuthorizer';
import { unsupportedMediaType } from '../../util/HttpErrors';
import { parseDataUpdate } from './SparqlDataUpdate';

const { blankNode, quad } = DataFactory;

export const N3_PATCH = 'text/n3';
export const SPARQL_UPDATE = 'application/sparql-update';

/** A parsed patch: the modes CSS's authorization asks of it, and how it changes a document's triples. */
export interface RdfPatch {
  /** acl:Read for conditions, acl:Append for inserts, acl:Read and acl:Write for deletes (as CSS's modes extractors). */
  modes: Set<AccessMode>;
  /** Changes `dataset` in place; throws (409, 415) with the dataset left to be thrown away. */
  apply: (dataset: Store) => Promise<void>;
}

/** CSS's N3 Patch (not exported by CSS's index): its formulae as default-graph triples. */
interface N3Patch extends Patch {
  deletes: Quad[];
  inserts: Quad[];
  conditions: Quad[];
}

/** A representation holding a dataset, as CSS's patchers take it. */
type DatasetRepresentation = NonNullable<Parameters<N3Patcher['handle']>[0]['representation']>;

/** The part of sparqlalgebrajs's update algebra read here. */
interface UpdateOperation {
  type: string;
  updates?: UpdateOperation[];
  delete?: Quad[];
  insert?: Quad[];
  where?: { type: string };
}

const n3Parser = new N3PatchBodyParser();
const n3Patcher = new N3Patcher();
const sparqlParser = new SparqlUpdateBodyParser();
/** CSS's SPARQL Update patcher (Comunica), for updates with a WHERE clause; made when first needed. */
let sparqlPatcher: SparqlUpdatePatcher | undefined;

/**
 * Parses a PATCH body as CSS does (its N3 Patch and SPARQL Update parsers: 400 for bad syntax, 422
 * for an N3 Patch that breaks the rules), with `iri` as base.
 */
export async function parseRdfPatch(type: string, body: string, iri: string): Promise<RdfPatch> {
  const request = Readable.from([ body ]) as unknown as HttpRequest;
  const metadata = new RepresentationMetadata({ path: iri }, type);
  if (type === N3_PATCH) {
    const patch = await n3Parser.handle({ request, metadata }) as N3Patch;
    return { modes: n3Modes(patch), apply: async(dataset): Promise<void> => {
      await n3Patcher.handle({ identifier: { path: iri }, patch, representation: datasetRepresentation(dataset) });
    } };
  }
  const data = parseDataUpdate(body, iri);
  if (data) {
    const operation: UpdateOperation = { type: 'compositeupdate', updates: data };
    return { modes: sparqlModes(operation), apply: async(dataset): Promise<void> => {
      applyData(operation, dataset);
    } };
  }
  const patch = await sparqlParser.handle({ request, metadata }) as SparqlUpdatePatch;
  const operation = patch.algebra as unknown as UpdateOperation;
  if (!isSupported(operation)) {
    // CSS's 501, which the server answers as 415 to a request with a body (UnsupportedBodyErrorHandler).
    throw unsupportedMediaType('This body cannot be stored here: Only DELETE/INSERT SPARQL update operations are supported');
  }
  return { modes: sparqlModes(operation), apply: async(dataset): Promise<void> => {
    if (isDataOnly(operation)) {
      applyData(operation, dataset);
      return;
    }
    sparqlPatcher ??= new SparqlUpdatePatcher();
    try {
      await sparqlPatcher.handle({ identifier: { path: iri }, patch: { ...patch, data: Readable.from([ body ]) } as SparqlUpdatePatch,
        representation: datasetRepresentation(dataset) });
    } catch (error: unknown) {
      if (NotImplementedHttpError.isInstance(error)) {
        throw unsupportedMediaType(`This body cannot be stored here: ${error.message}`);
      }
      throw error;
    }
  } };
}

function datasetRepresentation(dataset: Store): DatasetRepresentation {
  return Object.assign(new BasicRepresentation(), { dataset }) as unknown as DatasetRepresentation;
}

function n3Modes({ deletes, inserts, conditions }: N3Patch): Set<AccessMode> {
  const modes = new Set<AccessMode>();
  if (conditions.length > 0) {
    modes.add('read');
  }
  if (inserts.length > 0) {
    modes.add('append');
  }
  if (deletes.length > 0) {
    modes.add('read').add('write');
  }
  return modes;
}

function operationsOf(operation: UpdateOperation): UpdateOperation[] {
  return operation.type === 'compositeupdate' ? (operation.updates ?? []).flatMap(operationsOf) : [ operation ];
}

function isSupported(operation: UpdateOperation): boolean {
  return operationsOf(operation).every((each): boolean => each.type === 'deleteinsert' || each.type === 'nop');
}

function sparqlModes(operation: UpdateOperation): Set<AccessMode> {
  const modes = new Set<AccessMode>();
  for (const each of operationsOf(operation).filter((entry): boolean => entry.type === 'deleteinsert')) {
    if (each.where && each.where.type !== 'nop') {
      modes.add('read');
    }
    if ((each.insert ?? []).length > 0) {
      modes.add('append');
    }
    if ((each.delete ?? []).length > 0) {
      modes.add('read').add('write');
    }
  }
  return modes;
}

/**
 * INSERT DATA and DELETE DATA (what Solid clients send, saveSolidDatasetAt among them): no WHERE, no
 * variable, no GRAPH. Applied here, in order; anything else goes through CSS's patcher.
 */
function isDataOnly(operation: UpdateOperation): boolean {
  return operationsOf(operation).every((each): boolean => each.type === 'nop' || (!each.where &&
    [ ...each.delete ?? [], ...each.insert ?? [] ].every((entry): boolean => entry.graph.termType === 'DefaultGraph' &&
      ![ entry.subject, entry.predicate, entry.object ].some((term): boolean => term.termType === 'Variable'))));
}

function applyData(operation: UpdateOperation, dataset: Store): void {
  for (const each of operationsOf(operation)) {
    dataset.removeQuads(each.delete ?? []);
    // Each INSERT DATA's blank nodes are new ones, never those of the document that bear the same label.
    const fresh = new Map<string, Term>();
    const renamed = (term: Term): Term => term.termType === 'BlankNode' ?
      fresh.get(term.value) ?? fresh.set(term.value, blankNode()).get(term.value)! :
      term;
    dataset.addQuads((each.insert ?? []).map((entry): Quad => quad(renamed(entry.subject) as Quad['subject'],
      entry.predicate, renamed(entry.object) as Quad['object'])));
  }
}
