import type { Quad } from '@rdfjs/types';
import type { Conditions, HttpRequest } from '@solid/community-server';
import { BasicConditionsParser, BasicETagHandler, RepresentationMetadata } from '@solid/community-server';
import type { AccessMode, WebAclAuthorizer } from '../../plugins/ldp/WebAclAuthorizer';
import { isAuxiliary } from '../../storage/StoreVocabulary';
import { preconditionFailed } from '../../util/HttpErrors';
import { refusal } from '../access/AccessErrors';
import { agentIri } from '../http/Agent';
import type { Operation, OperationTarget } from '../http/Operation';
import type { LdpPaths } from './LdpPaths';

/** CSS's own parser of If-Match, If-None-Match and If-Unmodified-Since, so both paths judge them alike. */
const CONDITIONS = new BasicConditionsParser(new BasicETagHandler());

/**
 * The document a PUT, PATCH or DELETE addresses, when it is one the fast write handlers serve: not a
 * container, an ACL or description document, nor a path CSS keeps for itself.
 */
export function documentTarget(paths: LdpPaths, operationTarget: OperationTarget): string | undefined {
  const target = paths.resolve(operationTarget);
  if (!target || target.iri.endsWith('/') || isAuxiliary(target.iri) || paths.isReservedPath(target.path)) {
    return undefined;
  }
  return target.iri;
}

/** The container a document is a member of. */
export function containerOf(iri: string): string {
  return iri.slice(0, iri.lastIndexOf('/') + 1);
}

/** The request's preconditions, read by CSS's parser; undefined without any. */
export async function conditionsOf(request: HttpRequest): Promise<Conditions | undefined> {
  return CONDITIONS.handleSafe(request);
}

/**
 * Throws 412 unless the preconditions hold for the resource with `metadata` (empty: it does not
 * exist), compared as CSS's store compares them (the ETag's date).
 */
export function checkConditions(conditions: Conditions | undefined, iri: string, metadata: readonly Quad[],
  outcome: 'changed' | 'created' = 'changed'): void {
  if (conditions && !conditions.matchesMetadata(metadata.length > 0 ?
    new RepresentationMetadata({ path: iri }).addQuads([ ...metadata ]) :
    undefined)) {
    throw preconditionFailed(`The preconditions of this request do not hold for ${iri}: nothing was ${outcome}.`);
  }
}

/**
 * Under WebACL, the modes that CSS's own authorization asks of the request past those the pipeline
 * checked by its method (acl:Read and acl:Write for a patch that deletes, acl:Write on the container
 * for a DELETE): 401 or 403 as CSS answers, when the agent lacks one. Without an authorizer (public
 * append, read only), the pipeline's check is the whole check, as for CSS's handler there.
 */
export async function requireModes(authorizer: WebAclAuthorizer | undefined, operation: Operation, iri: string,
  modes: Iterable<AccessMode>): Promise<void> {
  const wanted = [ ...modes ];
  if (!authorizer || wanted.length === 0) {
    return;
  }
  const { agent, request } = operation;
  const origin = typeof request.headers.origin === 'string' ? request.headers.origin : undefined;
  const { user } = await authorizer.permissions(iri, agentIri(agent), origin);
  const missing = wanted.filter((mode): boolean => !user.has(mode));
  if (missing.length > 0) {
    throw refusal(agent, `WebACL does not give you ${missing.map((mode): string => `acl:${mode[0].toUpperCase()}${mode.slice(1)}`)
      .join(' and ')} on ${iri}.`);
  }
}
