/** One hostile (or odd-but-benign) request and the class of answer it must get. */
export interface HostileCase {
  /** Unique, readable: `<group>: <what>`. Failures name it. */
  name: string;
  method: string;
  /** Request target, sent byte for byte. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body chunked (no Content-Length), so only the reader's limit can stop it. */
  chunked?: boolean;
  /** Statuses that are a correct answer. All are below 500 by construction. */
  expect: readonly number[];
  /**
   * The answer comes from one of Fedpod's JSON APIs: an error answer must be JSON `{error, message}`.
   * False for requests CSS's LDP pipeline serves, which answers errors in its own formats.
   */
  jsonApi: boolean;
}

/** A named set of cases sent together, between two snapshots of the stored data. */
export interface CaseGroup {
  name: string;
  cases: HostileCase[];
  /**
   * Writes that benign 2xx answers in this group may make: each created resource (the Location of
   * a 2xx) may add its own graph, and its container may gain `ldp:contains` of it and a new
   * modification date. Groups without it must leave the store exactly as it was.
   */
  mayCreateResources?: boolean;
  /** Legitimate writes (e.g. an accepted delivery, stored later from a queue): the store is not compared. */
  mayChangeStore?: boolean;
}

export const STATUS = {
  ok: [ 200 ],
  created: [ 201 ],
  badRequest: [ 400 ],
  unauthorized: [ 401 ],
  forbidden: [ 403 ],
  notFound: [ 404 ],
  tooLarge: [ 413 ],
  unsupported: [ 415 ],
} as const;

export const any4xx: readonly number[] = Array.from({ length: 100 }, (_, index) => 400 + index);

/** Builds a case with the usual JSON content type. */
export function jsonCase(name: string, method: string, path: string, body: unknown, expect: readonly number[],
  options: { headers?: Record<string, string>; jsonApi?: boolean; contentType?: string } = {}): HostileCase {
  return {
    name,
    method,
    path,
    headers: { 'Content-Type': options.contentType ?? 'application/json', ...options.headers },
    body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
    expect,
    jsonApi: options.jsonApi ?? true,
  };
}
