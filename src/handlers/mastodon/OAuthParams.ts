import type { IncomingMessage } from 'node:http';
import { badRequest, unsupportedMediaType } from '../../util/HttpErrors';
import type { ClientCredentials } from '../../plugins/mastodon/MastodonOAuthService';
import { invalidClient } from '../../plugins/mastodon/OAuthErrors';
import { mediaTypeOf, parseJson, readBody } from '../http/HttpUtil';

const MAX_BODY = 64 * 1024;

/** The parameters of a request to the OAuth endpoints: a value, or a list for repeated or array ones. */
export type OAuthParams = Record<string, string | string[]>;

/**
 * The body's parameters, as apps send them: JSON (masto.js, megalodon), a form (most mobile apps)
 * or multipart form data; the query's parameters are taken too, under the body's (Mastodon takes
 * either). `name[]` is `name`. Other types: 415.
 */
export async function readOAuthParams(request: IncomingMessage, query: URLSearchParams): Promise<OAuthParams> {
  const params: OAuthParams = {};
  const add = (name: string, value: unknown): void => {
    const key = name.endsWith('[]') ? name.slice(0, -2) : name;
    const values = (Array.isArray(value) ? value : [ value ])
      .filter((item): boolean => [ 'string', 'number', 'boolean' ].includes(typeof item)).map(String);
    if (values.length === 0) {
      return;
    }
    const known = params[key];
    const all = [ ...known === undefined ? [] : Array.isArray(known) ? known : [ known ], ...values ];
    params[key] = all.length === 1 && !Array.isArray(value) ? all[0] : all;
  };
  for (const [ name, value ] of query) {
    add(name, value);
  }
  const type = mediaTypeOf(request.headers['content-type']);
  const hasBody = request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0' ||
    request.headers['transfer-encoding'] !== undefined;
  if (!hasBody) {
    request.resume();
    return params;
  }
  if (type !== 'application/json' && type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') {
    request.resume();
    throw unsupportedMediaType(`Content-Type ${type} is not accepted here; send JSON or a form.`);
  }
  const body = await readBody(request, MAX_BODY);
  if (type === 'application/json') {
    const parsed = parseJson(body.toString('utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw badRequest('The body must be a JSON object.', 'invalid_request');
    }
    for (const [ name, value ] of Object.entries(parsed as Record<string, unknown>)) {
      // A body value replaces the query's.
      delete params[name.endsWith('[]') ? name.slice(0, -2) : name];
      add(name, value);
    }
    return params;
  }
  let fields: Iterable<[string, unknown]>;
  if (type === 'multipart/form-data') {
    try {
      const data = await new Response(new Uint8Array(body), { headers: { 'content-type': request.headers['content-type']! }}).formData();
      const list: [string, unknown][] = [];
      // Files are not parameters: only text fields are kept.
      data.forEach((value, name): void => {
        list.push([ name, value ]);
      });
      fields = list;
    } catch {
      throw badRequest('The multipart body could not be read.', 'invalid_request');
    }
  } else {
    fields = new URLSearchParams(body.toString('utf8'));
  }
  const seen = new Set<string>();
  for (const [ name, value ] of fields) {
    const key = name.endsWith('[]') ? name.slice(0, -2) : name;
    if (!seen.has(key)) {
      delete params[key];
      seen.add(key);
    }
    add(name, name.endsWith('[]') ? [ value ] : value);
  }
  return params;
}

/** One parameter as a single string (the first of a list), or undefined. */
export function single(params: OAuthParams, name: string): string | undefined {
  const value = params[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The app's credentials: HTTP Basic (RFC 6749, 2.3.1: each part form-encoded) or client_id and
 * client_secret in the body; 401 invalid_client when neither is there.
 */
export function clientCredentials(request: IncomingMessage, params: OAuthParams): ClientCredentials {
  const basic = /^\s*Basic\s+(\S+)\s*$/iu.exec(request.headers.authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) {
      try {
        return {
          clientId: decodeURIComponent(decoded.slice(0, colon).replaceAll('+', ' ')),
          clientSecret: decodeURIComponent(decoded.slice(colon + 1).replaceAll('+', ' ')),
        };
      } catch {
        // Not form-encoded: taken as it is below.
      }
      return { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) };
    }
  }
  const clientId = single(params, 'client_id');
  const clientSecret = single(params, 'client_secret');
  if (!clientId || clientSecret === undefined) {
    throw invalidClient();
  }
  return { clientId, clientSecret };
}
