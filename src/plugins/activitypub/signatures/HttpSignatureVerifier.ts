import { timingSafeEqual, type KeyObject } from 'node:crypto';
import {
  algorithmForKey,
  derivedComponent,
  keyFitsAlgorithm,
  pathAndQuery,
  RFC9421_ALGORITHMS,
  sha256,
  sha512,
  verifyBytes,
  type Rfc9421Algorithm,
  type SignatureScheme,
} from './SignatureCommon';
import {
  isInnerList,
  parseDictionary,
  serializeInnerList,
  serializeItem,
  type SfDictionary,
  type SfInnerList,
  type SfItem,
} from './StructuredFields';

export interface VerifiableRequest {
  method: string;
  /**
   * The absolute URL the sender addressed: the server's public base URL + path + query. Its host
   * is what the signed `host` / `@authority` must be, whatever Host header a proxy passed on.
   * A path alone is resolved against `https://<Host header>`.
   */
  url: string;
  /** Lowercase names; repeated fields joined with ", " (node's `IncomingMessage.headers` is fine). */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The raw body exactly as received (absent = empty). */
  body?: Buffer | string;
}

export interface ResolvedKey {
  publicKey: KeyObject;
  /** The actor the key belongs to; the caller checks it against the activity's actor. */
  owner: string;
}

/**
 * Finds the public key for a keyId. `refresh: true` asks for a refetch (sent once when a signature
 * does not verify with the cached key, for key rotation). It may throw or return undefined.
 */
export type KeyResolver = (keyId: string, options?: { refresh?: boolean }) => Promise<ResolvedKey | undefined>;

export interface VerifyOptions {
  /** How old a signature may be (Date / created). Default 12 h, as Mastodon. */
  maxAgeMs?: number;
  /** How far in the future a signature's time may be. Default 1 h, as Mastodon. */
  skewMs?: number;
  /** The current time (ms since the epoch, or a Date); now by default. */
  now?: number | Date;
  /** Ask the resolver for a fresh key once when the signature fails with the first one. Default true. */
  refreshKeyOnFailure?: boolean;
}

export type VerifyResult =
  | { ok: true; keyId: string; owner: string; scheme: SignatureScheme }
  | { ok: false; reason: string; keyId?: string };

interface Candidate {
  keyId: string;
  /** Undefined: infer from the key. */
  alg?: Rfc9421Algorithm;
  /** The signed data; a second one is tried if the first fails (cavage without the query string). */
  messages: Buffer[];
  signature: Buffer;
  ecdsaDer: boolean;
  scheme: SignatureScheme;
}

class Refusal {
  public constructor(
    public readonly reason: string,
    public readonly keyId?: string,
  ) {}
}

const DEFAULT_MAX_AGE_MS = 12 * 3_600_000;
const DEFAULT_SKEW_MS = 3_600_000;
const MAX_RFC9421_SIGNATURES = 4;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/u;
const CAVAGE_ALGORITHMS: Record<string, Rfc9421Algorithm | undefined> = {
  'rsa-sha256': 'rsa-v1_5-sha256',
  hs2019: undefined,
};
const BODY_METHODS = new Set([ 'POST', 'PUT', 'PATCH' ]);

/**
 * Verifies signed incoming requests, draft-cavage-http-signatures-12 (`Signature`) and RFC 9421
 * (`Signature-Input` + `Signature`), with Mastodon's rules:
 *
 * - cavage: `algorithm` `rsa-sha256`, `hs2019` or absent (then the key's type decides);
 *   `(request-target)`, `host`, and `date` (or `(created)`) signed, and `digest` when the request
 *   has a body or is a POST/PUT/PATCH; `Digest` (SHA-256 / SHA-512) must match the body;
 *   `Date`/`created` within `maxAgeMs` in the past and `skewMs` in the future; `expires` honoured.
 *   A signature over `(request-target)` without the query string (old Mastodon, Fedify) is accepted.
 * - RFC 9421: each signature label (up to 4) is tried in turn; `created` and `keyid` required,
 *   `alg` optional (checked against the key type); `@method` and the target (`@target-uri`, or
 *   `@authority`/`host` with `@request-target`, or with `@path` [+ `@query`]) must be covered, and
 *   `content-digest` with a body; `Content-Digest` (sha-256 / sha-512) must match the body.
 *
 * Never throws: malformed input gives `{ ok: false, reason }`.
 */
export class HttpSignatureVerifier {
  public async verify(
    request: VerifiableRequest,
    resolveKey: KeyResolver,
    options: VerifyOptions = {},
  ): Promise<VerifyResult> {
    try {
      const url = this.requestUrl(request);
      if (url === undefined) {
        return { ok: false, reason: 'invalid request URL' };
      }
      const now = options.now === undefined ? Date.now() : Number(options.now);
      const window = {
        now,
        maxAgeMs: options.maxAgeMs ?? DEFAULT_MAX_AGE_MS,
        skewMs: options.skewMs ?? DEFAULT_SKEW_MS,
      };
      const refresh = options.refreshKeyOnFailure ?? true;
      if (header(request, 'signature-input') !== undefined) {
        return await this.verifyRfc9421(request, url, window, resolveKey, refresh);
      }
      if (header(request, 'signature') !== undefined) {
        const candidate = this.cavageCandidate(request, url, window);
        return candidate instanceof Refusal ? refuse(candidate) : await this.check(candidate, resolveKey, refresh);
      }
      return { ok: false, reason: 'no signature' };
    } catch (error: unknown) {
      return { ok: false, reason: `verification error: ${(error as Error).message}` };
    }
  }

  private requestUrl(request: VerifiableRequest): URL | undefined {
    try {
      return new URL(request.url);
    } catch {
      const host = header(request, 'host');
      if (host === undefined) {
        return undefined;
      }
      try {
        return new URL(request.url, `https://${host}`);
      } catch {
        return undefined;
      }
    }
  }

  // ---- draft-cavage -------------------------------------------------------------------------

  private cavageCandidate(request: VerifiableRequest, url: URL, window: TimeWindow): Candidate | Refusal {
    const params = parseCavageParams(header(request, 'signature')!);
    if (params === undefined) {
      return new Refusal('malformed Signature header');
    }
    const keyId = params.get('keyid');
    const signatureText = params.get('signature');
    if (keyId === undefined || keyId === '') {
      return new Refusal('Signature has no keyId');
    }
    if (signatureText === undefined || !BASE64.test(signatureText) || signatureText.length === 0) {
      return new Refusal('Signature has no valid signature', keyId);
    }
    const algorithm = params.get('algorithm')?.toLowerCase();
    if (algorithm !== undefined && !(algorithm in CAVAGE_ALGORITHMS)) {
      return new Refusal(`unsupported signature algorithm ${algorithm}`, keyId);
    }
    const names = (params.get('headers') ?? 'date').toLowerCase().split(' ').filter((name) => name !== '');
    if (new Set(names).size !== names.length) {
      return new Refusal('a header is signed twice', keyId);
    }
    const body = request.body ?? '';
    const needsDigest = BODY_METHODS.has(request.method.toUpperCase()) || body.length > 0;
    for (const required of [ '(request-target)', 'host', ...needsDigest ? [ 'digest' ] : [] ]) {
      if (!names.includes(required)) {
        return new Refusal(`${required} is not signed`, keyId);
      }
    }
    if (!names.includes('date') && !names.includes('(created)')) {
      return new Refusal('neither date nor (created) is signed', keyId);
    }

    const created = params.get('created');
    const expires = params.get('expires');
    const timeRefusal =
      this.checkCavageTimes(request, names, created, expires, window) ??
      (names.includes('digest') ? checkDigest(header(request, 'digest'), body) : undefined);
    if (timeRefusal !== undefined) {
      return new Refusal(timeRefusal, keyId);
    }

    const lines: string[] = [];
    let targetIndex = -1;
    for (const name of names) {
      let value: string | undefined;
      if (name === '(request-target)') {
        targetIndex = lines.length;
        value = `${request.method.toLowerCase()} ${pathAndQuery(url)}`;
      } else if (name === '(created)') {
        value = created;
      } else if (name === '(expires)') {
        value = expires;
      } else if (name === 'host') {
        value = url.host;
      } else {
        value = header(request, name)?.trim();
      }
      if (value === undefined) {
        return new Refusal(`signed header ${name} is missing`, keyId);
      }
      lines.push(`${name}: ${value}`);
    }
    const messages = [ Buffer.from(lines.join('\n'), 'utf8') ];
    if (url.search !== '' && targetIndex >= 0) {
      lines[targetIndex] = `(request-target): ${request.method.toLowerCase()} ${url.pathname}`;
      messages.push(Buffer.from(lines.join('\n'), 'utf8'));
    }
    return {
      keyId,
      alg: algorithm === undefined ? undefined : CAVAGE_ALGORITHMS[algorithm],
      messages,
      signature: Buffer.from(signatureText, 'base64'),
      ecdsaDer: true,
      scheme: 'cavage',
    };
  }

  private checkCavageTimes(
    request: VerifiableRequest,
    names: string[],
    created: string | undefined,
    expires: string | undefined,
    window: TimeWindow,
  ): string | undefined {
    if (names.includes('date')) {
      const date = header(request, 'date');
      const time = date === undefined ? NaN : Date.parse(date);
      if (Number.isNaN(time)) {
        return date === undefined ? 'signed header date is missing' : 'invalid Date header';
      }
      const refusal = checkTime('Date', time, window);
      if (refusal !== undefined) {
        return refusal;
      }
    }
    if (created !== undefined) {
      if (!/^\d{1,15}$/u.test(created)) {
        return 'invalid created parameter';
      }
      const refusal = checkTime('created', Number(created) * 1000, window);
      if (refusal !== undefined) {
        return refusal;
      }
    }
    if (expires !== undefined) {
      if (!/^\d{1,15}(?:\.\d+)?$/u.test(expires)) {
        return 'invalid expires parameter';
      }
      if (Number(expires) * 1000 < window.now) {
        return 'signature expired (expires)';
      }
    }
    return undefined;
  }

  // ---- RFC 9421 ----------------------------------------------------------------------------

  private async verifyRfc9421(
    request: VerifiableRequest,
    url: URL,
    window: TimeWindow,
    resolveKey: KeyResolver,
    refresh: boolean,
  ): Promise<VerifyResult> {
    const signatureHeader = header(request, 'signature');
    if (signatureHeader === undefined) {
      return { ok: false, reason: 'Signature-Input without Signature' };
    }
    let inputs: SfDictionary;
    let signatures: SfDictionary;
    try {
      inputs = parseDictionary(header(request, 'signature-input')!);
    } catch (error: unknown) {
      return { ok: false, reason: `malformed Signature-Input: ${(error as Error).message}` };
    }
    try {
      signatures = parseDictionary(signatureHeader);
    } catch (error: unknown) {
      return { ok: false, reason: `malformed Signature: ${(error as Error).message}` };
    }
    let firstFailure: VerifyResult | undefined;
    let tried = 0;
    for (const [ label, input ] of inputs) {
      if (tried >= MAX_RFC9421_SIGNATURES) {
        break;
      }
      tried += 1;
      const candidate = this.rfc9421Candidate(request, url, window, label, input, signatures);
      const result = candidate instanceof Refusal ? refuse(candidate) : await this.check(candidate, resolveKey, refresh);
      if (result.ok) {
        return result;
      }
      firstFailure ??= result;
    }
    return firstFailure ?? { ok: false, reason: 'Signature-Input has no signature' };
  }

  private rfc9421Candidate(
    request: VerifiableRequest,
    url: URL,
    window: TimeWindow,
    label: string,
    input: SfItem | SfInnerList,
    signatures: SfDictionary,
  ): Candidate | Refusal {
    if (!isInnerList(input)) {
      return new Refusal(`Signature-Input ${label} is not an inner list`);
    }
    const keyidParam = input.params.get('keyid');
    if (keyidParam?.type !== 'string' || keyidParam.value === '') {
      return new Refusal(`signature ${label} has no keyid`);
    }
    const keyId = keyidParam.value;
    const signature = signatures.get(label);
    if (signature === undefined || isInnerList(signature) || signature.value.type !== 'binary') {
      return new Refusal(`no signature value for ${label}`, keyId);
    }
    const algParam = input.params.get('alg');
    let alg: Rfc9421Algorithm | undefined;
    if (algParam !== undefined) {
      if (algParam.type !== 'string' || !RFC9421_ALGORITHMS.has(algParam.value)) {
        return new Refusal(`unsupported alg in ${label}`, keyId);
      }
      alg = algParam.value as Rfc9421Algorithm;
    }

    const created = input.params.get('created');
    if (created?.type !== 'integer') {
      return new Refusal(`signature ${label} has no created`, keyId);
    }
    const refusal = checkTime('created', created.value * 1000, window);
    if (refusal !== undefined) {
      return new Refusal(refusal, keyId);
    }
    const expires = input.params.get('expires');
    if (expires !== undefined) {
      if (expires.type !== 'integer') {
        return new Refusal('invalid expires parameter', keyId);
      }
      if (expires.value * 1000 < window.now) {
        return new Refusal('signature expired (expires)', keyId);
      }
    }

    const built = rfc9421SignatureBase(request, url, input);
    if (typeof built === 'string') {
      return new Refusal(built, keyId);
    }
    const { base, names } = built;

    const coverage = checkCoverage(names, url);
    if (coverage !== undefined) {
      return new Refusal(coverage, keyId);
    }
    const body = request.body ?? '';
    if (BODY_METHODS.has(request.method.toUpperCase()) || body.length > 0) {
      if (!names.has('content-digest')) {
        return new Refusal('content-digest is not covered', keyId);
      }
    }
    if (names.has('content-digest')) {
      const digestRefusal = checkContentDigest(header(request, 'content-digest'), body);
      if (digestRefusal !== undefined) {
        return new Refusal(digestRefusal, keyId);
      }
    }

    return {
      keyId,
      alg,
      messages: [ Buffer.from(base, 'utf8') ],
      signature: signature.value.value,
      ecdsaDer: false,
      scheme: 'rfc9421',
    };
  }

  // ---- both --------------------------------------------------------------------------------

  private async check(candidate: Candidate, resolveKey: KeyResolver, refresh: boolean): Promise<VerifyResult> {
    const { keyId } = candidate;
    const first = await resolve(resolveKey, keyId, false);
    if (first instanceof Refusal) {
      return refuse(first);
    }
    const outcome = this.checkWith(candidate, first.publicKey);
    if (outcome === true) {
      return { ok: true, keyId, owner: first.owner, scheme: candidate.scheme };
    }
    if (refresh) {
      const second = await resolve(resolveKey, keyId, true);
      if (!(second instanceof Refusal) && !second.publicKey.equals(first.publicKey)) {
        const retried = this.checkWith(candidate, second.publicKey);
        if (retried === true) {
          return { ok: true, keyId, owner: second.owner, scheme: candidate.scheme };
        }
        return { ok: false, reason: retried, keyId };
      }
    }
    return { ok: false, reason: outcome, keyId };
  }

  /** True, or why not. */
  private checkWith(candidate: Candidate, publicKey: KeyObject): true | string {
    if (publicKey.type !== 'public') {
      return 'the resolved key is not a public key';
    }
    const alg = candidate.alg ?? algorithmForKey(publicKey);
    if (alg === undefined || !keyFitsAlgorithm(publicKey, alg)) {
      return `the key does not fit algorithm ${alg ?? publicKey.asymmetricKeyType ?? 'unknown'}`;
    }
    for (const message of candidate.messages) {
      if (verifyBytes(alg, message, publicKey, candidate.signature, candidate.ecdsaDer)) {
        return true;
      }
    }
    return 'signature does not verify';
  }
}

interface TimeWindow {
  now: number;
  maxAgeMs: number;
  skewMs: number;
}

/**
 * The RFC 9421 §2.5 signature base of a request for one Signature-Input member, and the covered
 * component names; or why it cannot be built.
 */
export function rfc9421SignatureBase(
  request: VerifiableRequest,
  url: URL,
  input: SfInnerList,
): { base: string; names: Set<string> } | string {
  const names = new Set<string>();
  const lines: string[] = [];
  for (const component of input.items) {
    if (component.value.type !== 'string') {
      return 'a covered component is not a string';
    }
    const name = component.value.value;
    if (component.params.size > 0) {
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
      value = header(request, name)?.trim();
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

function refuse(refusal: Refusal): VerifyResult {
  return refusal.keyId === undefined
    ? { ok: false, reason: refusal.reason }
    : { ok: false, reason: refusal.reason, keyId: refusal.keyId };
}

async function resolve(resolveKey: KeyResolver, keyId: string, refresh: boolean): Promise<ResolvedKey | Refusal> {
  try {
    const key = await (refresh ? resolveKey(keyId, { refresh: true }) : resolveKey(keyId));
    return key ?? new Refusal('unknown key', keyId);
  } catch (error: unknown) {
    return new Refusal(`key not available: ${(error as Error).message}`, keyId);
  }
}

function header(request: VerifiableRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function checkTime(what: string, time: number, window: TimeWindow): string | undefined {
  if (time < window.now - window.maxAgeMs) {
    return `signature expired (${what} too old)`;
  }
  if (time > window.now + window.skewMs) {
    return `${what} is in the future`;
  }
  return undefined;
}

/** The method and the whole target must be covered. */
function checkCoverage(names: Set<string>, url: URL): string | undefined {
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

function digestMatches(expected: Buffer, given: Buffer): boolean {
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** cavage `Digest: SHA-256=<base64>[, SHA-512=<base64>]` (RFC 3230). */
function checkDigest(value: string | undefined, body: Buffer | string): string | undefined {
  if (value === undefined) {
    return 'signed header digest is missing';
  }
  let known = 0;
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) {
      continue;
    }
    const algorithm = part.slice(0, eq).trim().toLowerCase();
    const encoded = part.slice(eq + 1).trim();
    if (algorithm !== 'sha-256' && algorithm !== 'sha-512') {
      continue;
    }
    known += 1;
    if (!BASE64.test(encoded)) {
      return 'malformed Digest';
    }
    const expected = algorithm === 'sha-256' ? sha256(body) : sha512(body);
    if (!digestMatches(expected, Buffer.from(encoded, 'base64'))) {
      return 'Digest does not match the body';
    }
  }
  return known === 0 ? 'Digest has no SHA-256' : undefined;
}

/** RFC 9530 `Content-Digest: sha-256=:<base64>:` (sha-512 too); every known digest must match. */
function checkContentDigest(value: string | undefined, body: Buffer | string): string | undefined {
  if (value === undefined) {
    return 'covered field content-digest is missing';
  }
  let dict: SfDictionary;
  try {
    dict = parseDictionary(value);
  } catch {
    return 'malformed Content-Digest';
  }
  let known = 0;
  for (const [ algorithm, member ] of dict) {
    if (algorithm !== 'sha-256' && algorithm !== 'sha-512') {
      continue;
    }
    if (isInnerList(member) || member.value.type !== 'binary') {
      return 'malformed Content-Digest';
    }
    known += 1;
    const expected = algorithm === 'sha-256' ? sha256(body) : sha512(body);
    if (!digestMatches(expected, member.value.value)) {
      return 'Content-Digest does not match the body';
    }
  }
  return known === 0 ? 'Content-Digest has no sha-256 or sha-512' : undefined;
}

/**
 * `keyId="…",algorithm="…",headers="…",signature="…"` (also unquoted numbers for created/expires).
 * Names are case-insensitive (returned lowercase); a repeated name or stray text is malformed.
 */
export function parseCavageParams(value: string): Map<string, string> | undefined {
  const params = new Map<string, string>();
  const pattern = /\s*([A-Za-z][A-Za-z0-9_-]*)\s*=\s*(?:"([^"\\]*)"|([0-9]+(?:\.[0-9]+)?))\s*(,|$)/uy;
  let pos = 0;
  while (pos < value.length) {
    pattern.lastIndex = pos;
    const match = pattern.exec(value);
    if (match === null) {
      return undefined;
    }
    const name = match[1].toLowerCase();
    if (params.has(name)) {
      return undefined;
    }
    params.set(name, match[2] ?? match[3]);
    pos = pattern.lastIndex;
    if (match[4] === ',' && pos >= value.length) {
      return undefined;
    }
  }
  return params.size === 0 ? undefined : params;
}
