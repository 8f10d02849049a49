import { isArrayBuffer } from 'node:util/types';
import {
  isInnerList,
  parseDictionary,
  serializeInnerList,
  serializeItem,
  type Dictionary,
  type InnerList,
  type Item,
} from 'structured-headers';
import type { DigestVerifier } from './DigestVerifier';
import type { VerifiableRequest, VerifyResult } from './HttpSignatureVerifier';
import {
  refusal,
  requestHeader,
  type SignatureCandidate,
  type SignatureCheck,
  type VerifyFailure,
} from './SignatureCheck';
import { derivedComponent, RFC9421_ALGORITHMS, type Rfc9421Algorithm } from './SignatureCommon';
import { messageOf } from '../../../util/Errors';

const MAX_SIGNATURES = 4;
const BODY_METHODS = new Set([ 'POST', 'PUT', 'PATCH' ]);

/**
 * Verifies RFC 9421 HTTP Message Signatures (`Signature-Input` + `Signature`, both structured-field
 * Dictionaries keyed by label). Each label (up to 4) is tried in turn and the first that verifies
 * wins. `created` and `keyid` are required, `alg` optional (checked against the key type);
 * `@method` and the target (`@target-uri`, or `@authority`/`host` with `@request-target`, or with
 * `@path` [+ `@query`]) must be covered, and `content-digest` with a body; `Content-Digest` must
 * match the body.
 */
export class Rfc9421SignatureVerifier {
  public constructor(private readonly digests: DigestVerifier) {}

  public async verify(request: VerifiableRequest, url: URL, check: SignatureCheck): Promise<VerifyResult> {
    const signatureHeader = requestHeader(request, 'signature');
    if (signatureHeader === undefined) {
      return refusal('Signature-Input without Signature');
    }
    let inputs: Dictionary;
    let signatures: Dictionary;
    try {
      inputs = parseDictionary(requestHeader(request, 'signature-input') ?? '');
    } catch (error: unknown) {
      return refusal(`malformed Signature-Input: ${messageOf(error)}`);
    }
    try {
      signatures = parseDictionary(signatureHeader);
    } catch (error: unknown) {
      return refusal(`malformed Signature: ${messageOf(error)}`);
    }
    let firstFailure: VerifyResult | undefined;
    for (const [ label, input ] of [ ...inputs ].slice(0, MAX_SIGNATURES)) {
      const candidate = this.candidate(request, url, check, label, input, signatures);
      const result = 'ok' in candidate ? candidate : await check.verify(candidate);
      if (result.ok) {
        return result;
      }
      firstFailure ??= result;
    }
    return firstFailure ?? refusal('Signature-Input has no signature');
  }

  private candidate(
    request: VerifiableRequest,
    url: URL,
    check: SignatureCheck,
    label: string,
    input: Item | InnerList,
    signatures: Dictionary,
  ): SignatureCandidate | VerifyFailure {
    if (!isInnerList(input)) {
      return refusal(`Signature-Input ${label} is not an inner list`);
    }
    const params = input[1];
    const keyId = params.get('keyid');
    if (typeof keyId !== 'string' || keyId === '') {
      return refusal(`signature ${label} has no keyid`);
    }
    const signature = signatures.get(label);
    const signatureBytes = signature === undefined || isInnerList(signature) ? undefined : signature[0];
    if (!isArrayBuffer(signatureBytes)) {
      return refusal(`no signature value for ${label}`, keyId);
    }
    const algParam = params.get('alg');
    let alg: Rfc9421Algorithm | undefined;
    if (algParam !== undefined) {
      if (typeof algParam !== 'string' || !RFC9421_ALGORITHMS.has(algParam)) {
        return refusal(`unsupported alg in ${label}`, keyId);
      }
      alg = algParam as Rfc9421Algorithm;
    }

    // The library parses Integers and Decimals alike to numbers: an Integer is a whole number.
    const created = params.get('created');
    if (!isInteger(created)) {
      return refusal(`signature ${label} has no created`, keyId);
    }
    const timeReason = check.timeRefusal('created', created * 1000);
    if (timeReason !== undefined) {
      return refusal(timeReason, keyId);
    }
    const expires = params.get('expires');
    if (expires !== undefined) {
      if (!isInteger(expires)) {
        return refusal('invalid expires parameter', keyId);
      }
      const expiryReason = check.expiryRefusal(expires * 1000);
      if (expiryReason !== undefined) {
        return refusal(expiryReason, keyId);
      }
    }

    const built = rfc9421SignatureBase(request, url, input);
    if (typeof built === 'string') {
      return refusal(built, keyId);
    }
    const { base, names } = built;
    const coverage = coverageRefusal(names, url);
    if (coverage !== undefined) {
      return refusal(coverage, keyId);
    }
    const body = request.body ?? '';
    if ((BODY_METHODS.has(request.method.toUpperCase()) || body.length > 0) && !names.has('content-digest')) {
      return refusal('content-digest is not covered', keyId);
    }
    if (names.has('content-digest')) {
      const digestReason = this.digests.checkContentDigest(requestHeader(request, 'content-digest'), body);
      if (digestReason !== undefined) {
        return refusal(digestReason, keyId);
      }
    }

    return {
      keyId,
      alg,
      messages: [ Buffer.from(base, 'utf8') ],
      signature: Buffer.from(signatureBytes),
      ecdsaDer: false,
      scheme: 'rfc9421',
    };
  }
}

/**
 * The RFC 9421 §2.5 signature base of a request for one Signature-Input member, and the covered
 * component names; or why it cannot be built. Component identifiers and `@signature-params` are
 * the canonical re-serialization of what was parsed, as the RFC requires.
 */
export function rfc9421SignatureBase(
  request: VerifiableRequest,
  url: URL,
  input: InnerList,
): { base: string; names: Set<string> } | string {
  const names = new Set<string>();
  const lines: string[] = [];
  for (const component of input[0]) {
    const [ name, componentParams ] = component;
    if (typeof name !== 'string') {
      return 'a covered component is not a string';
    }
    if (componentParams.size > 0) {
      return `unsupported parameters on component ${name}`;
    }
    if (names.has(name)) {
      return `component ${name} is covered twice`;
    }
    names.add(name);
    let value: string | undefined;
    if (name.startsWith('@')) {
      value = derivedComponent(name, request.method, url);
      if (value === undefined) {
        return `unsupported derived component ${name}`;
      }
    } else {
      if (name !== name.toLowerCase()) {
        return `component name ${name} is not lowercase`;
      }
      value = requestHeader(request, name)?.trim();
      if (value === undefined) {
        return `covered field ${name} is missing`;
      }
      if (/[\r\n]/u.test(value)) {
        return `covered field ${name} has a line break`;
      }
    }
    lines.push(`${serializeItem(component)}: ${value}`);
  }
  lines.push(`"@signature-params": ${serializeInnerList(input)}`);
  return { base: lines.join('\n'), names };
}

function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

/** The method and the whole target must be covered. */
function coverageRefusal(names: Set<string>, url: URL): string | undefined {
  if (!names.has('@method')) {
    return '@method is not covered';
  }
  if (names.has('@target-uri')) {
    return undefined;
  }
  const authority = names.has('@authority') || names.has('host');
  const path = names.has('@request-target') || (names.has('@path') && (url.search === '' || names.has('@query')));
  return authority && path ? undefined : '@target-uri is not covered';
}
