/**
 * Hostile requests for the ActivityPub setup (config/activitypub.json), started WITHOUT
 * --allow-private-network. None of them may write anything: every group leaves the store unchanged.
 */
import { cavageHeaders, sha256Digest, type HostileTokens } from '../support/forgery';
import {
  AS, BAD_IRIS, BAD_USERNAMES, enc, MIB, MALFORMED_JSON, manyKeys, nestedArrays, nestedObjects, SPARQL_INJECTIONS, ssrfUrls,
} from './payloads';
import { jsonCase, type CaseGroup, type HostileCase } from './types';

export interface ActivityPubTarget {
  /** Host header value, `localhost:<port>`. */
  host: string;
  /** `http://localhost:<port>/` */
  baseUrl: string;
  username: string;
  token: string;
  /** Path of a live webhook of the user (only ever sent invalid payloads). */
  webhookPath: string;
  /** A token of another user. */
  otherToken: string;
  /** Paths of the user's public note and of a private one (addressed to nobody), and of their Create activities. */
  notes: Record<'public' | 'private', { object: string; activity: string }>;
  tokens: HostileTokens;
  canaryPort: number;
}


function authGroup(t: ActivityPubTarget): CaseGroup {
  const cases: HostileCase[] = [];
  for (const endpoint of [ 'signup', 'login' ]) {
    const path = `/auth/${endpoint}`;
    for (const [ label, body ] of MALFORMED_JSON) {
      cases.push(jsonCase(`${endpoint}: malformed JSON, ${label}`, 'POST', path, body, [ 400 ]));
    }
    const shapes: [string, unknown][] = [
      [ 'null', 'null' ], [ 'number', '42' ], [ 'string', '"alice"' ], [ 'array', [ 'alice', 'a@b.c', 'password1' ] ],
      [ 'fields as arrays', { username: [ 'x' ], email: [ 'x@y.z' ], password: [ 'password1' ] } ],
      [ 'fields as objects', { username: { $ne: '' }, email: { $gt: '' }, password: { $ne: '' } } ],
      [ 'proto pollution', '{"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}}' ],
      [ 'deep nesting', nestedObjects(100_000) ],
      [ 'deep arrays', nestedArrays(100_000) ],
    ];
    for (const [ label, body ] of shapes) {
      cases.push(jsonCase(`${endpoint}: ${label}`, 'POST', path, body, endpoint === 'signup' ? [ 400, 413 ] : [ 400, 401, 413 ]));
    }
    cases.push(jsonCase(`${endpoint}: text/plain`, 'POST', path, '{"username":"x"}', [ 415 ], { contentType: 'text/plain' }));
    cases.push(jsonCase(`${endpoint}: form-encoded`, 'POST', path, 'username=x&password=y', [ 415 ],
      { contentType: 'application/x-www-form-urlencoded' }));
    cases.push({ name: `${endpoint}: no content type`, method: 'POST', path, body: '{}', expect: [ 415 ], jsonApi: true });
    cases.push(jsonCase(`${endpoint}: body over 16 KiB`, 'POST', path, JSON.stringify({ username: 'a'.repeat(20_000) }), [ 413 ]));
    cases.push({ ...jsonCase(`${endpoint}: chunked body over 16 KiB`, 'POST', path, `{"u":"${'a'.repeat(40_000)}"}`, [ 413 ]), chunked: true });
    for (const method of [ 'GET', 'PUT', 'DELETE', 'PATCH' ]) {
      cases.push({ name: `${endpoint}: ${method}`, method, path, expect: [ 405 ], jsonApi: true });
    }
  }
  for (const [ label, username ] of BAD_USERNAMES) {
    cases.push(jsonCase(`signup: username ${label}`, 'POST', '/auth/signup',
      { username, email: `x${cases.length}@example.org`, password: 'password123' }, [ 400 ]));
  }
  cases.push(jsonCase('signup: taken username', 'POST', '/auth/signup',
    { username: t.username, email: 'new@example.org', password: 'password123' }, [ 409 ]));
  for (const [ label, email ] of [ [ 'injection', '"} ; DROP ALL ; {"@x.org' ], [ 'no at', 'nobody' ], [ 'newline', 'a@b.org\nBcc: c@d.org' ],
    [ 'very long', `${'a'.repeat(300)}@example.org` ], [ 'angle brackets', '<a@b.org>' ] ]) {
    cases.push(jsonCase(`signup: email ${label}`, 'POST', '/auth/signup', { username: 'validname1', email, password: 'password123' }, [ 400 ]));
  }
  cases.push(jsonCase('signup: password too short', 'POST', '/auth/signup', { username: 'validname2', email: 'v2@example.org', password: 'short' }, [ 400 ]));
  cases.push(jsonCase('signup: password too long', 'POST', '/auth/signup', { username: 'validname3', email: 'v3@example.org', password: 'p'.repeat(2000) }, [ 400 ]));
  for (const injection of SPARQL_INJECTIONS.slice(0, 8)) {
    cases.push(jsonCase(`login: injection ${JSON.stringify(injection)}`, 'POST', '/auth/login', { username: injection, password: injection }, [ 400, 401 ]));
  }
  cases.push(jsonCase('login: wrong password', 'POST', '/auth/login', { username: t.username, password: 'wrong password' }, [ 401 ]));
  cases.push(jsonCase('login: email injection', 'POST', '/auth/login', { email: '" OR 1=1 --', password: 'x' }, [ 401 ]));
  return { name: 'auth endpoints', cases };
}

function jwtGroup(t: ActivityPubTarget): CaseGroup {
  const cases: HostileCase[] = [];
  const outbox = `/actors/${t.username}/outbox`;
  const note = { '@context': AS, type: 'Note', content: 'must not be stored', to: [ `${AS}#Public` ] };
  cases.push(jsonCase('outbox: no Authorization', 'POST', outbox, note, [ 403 ], { contentType: 'application/activity+json' }));
  for (const [ label, value ] of t.tokens.values) {
    cases.push(jsonCase(`outbox: ${label}`, 'POST', outbox, note, [ 401, 403 ],
      { contentType: 'application/activity+json', headers: { Authorization: value } }));
    cases.push(jsonCase(`webhooks: ${label}`, 'POST', '/webhooks', { action: 'post-to-outbox' }, [ 401 ], { headers: { Authorization: value } }));
    cases.push({ name: `webhook list: ${label}`, method: 'GET', path: '/webhooks', headers: { Authorization: value }, expect: [ 401 ], jsonApi: true });
  }
  const ghost = `Bearer ${t.tokens.ghost}`;
  // A well-signed token of an account that does not exist is no credential at all (401), as a revoked one.
  cases.push(jsonCase('outbox: unknown user\'s token on another user\'s outbox', 'POST', outbox, note, [ 401 ],
    { contentType: 'application/activity+json', headers: { Authorization: ghost } }));
  cases.push(jsonCase('outbox: unknown user\'s token on its own outbox', 'POST', `/actors/${t.tokens.ghostName}/outbox`, note, [ 401, 403, 404 ],
    { contentType: 'application/activity+json', headers: { Authorization: ghost } }));
  cases.push(jsonCase('webhooks: unknown user\'s token', 'POST', '/webhooks', { action: 'post-to-outbox' }, [ 401, 403, 404 ],
    { headers: { Authorization: ghost } }));
  cases.push(jsonCase('outbox: valid token, wrong media type', 'POST', outbox, note, [ 415 ],
    { contentType: 'text/plain', headers: { Authorization: `Bearer ${t.token}` } }));
  return { name: 'JWTs', cases };
}

function deliveryBody(t: ActivityPubTarget, actor: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ '@context': AS, id: `${actor}/activities/${Math.random().toString(36).slice(2)}`, type: 'Create', actor,
    object: { id: `${actor}/notes/1`, type: 'Note', content: 'hostile', attributedTo: actor }, to: [ `${t.baseUrl}actors/${t.username}` ], ...extra });
}

function signatureGroup(t: ActivityPubTarget): CaseGroup {
  const cases: HostileCase[] = [];
  const inboxes = [ '/inbox', `/actors/${t.username}/inbox` ];
  const actor = `http://127.0.0.1:${t.canaryPort}/actor`;
  const keyId = `${actor}#main-key`;
  for (const path of inboxes) {
    const body = deliveryBody(t, actor);
    const sign = (options: Partial<Parameters<typeof cavageHeaders>[0]> = {}): Record<string, string> =>
      cavageHeaders({ method: 'post', path, host: t.host, body, keyId, ...options });
    const post = (label: string, headers: Record<string, string>, options: { body?: string; expect?: number[] } = {}): void => {
      cases.push({ name: `${path}: ${label}`, method: 'POST', path, headers, body: options.body ?? body, expect: options.expect ?? [ 401 ], jsonApi: true });
    };
    post('unsigned', { 'Content-Type': 'application/activity+json' });
    post('signed with a key of the actor\'s own address (fetch refused)', sign());
    post('empty Signature', { ...sign(), Signature: '' });
    post('Signature garbage', { ...sign(), Signature: '!!!"=,,,="' });
    post('Signature unbalanced quote', { ...sign(), Signature: `keyId="${keyId},signature="abc` });
    post('Signature without keyId', { ...sign(), Signature: 'algorithm="rsa-sha256",headers="(request-target) host date digest",signature="YWJj"' });
    post('Signature with an empty keyId', { ...sign(), Signature: 'keyId="",signature="YWJj"' });
    post('Signature not base64', sign({ signature: '***not base64***' }));
    post('Signature keyId repeated 100 times', { ...sign(), Signature: Array.from({ length: 100 }, () => `keyId="${keyId}"`).join(',') });
    post('forged signature bytes', sign({ signature: Buffer.alloc(256, 7).toString('base64') }));
    post('algorithm hmac-sha256', sign({ algorithm: 'hmac-sha256' }));
    post('algorithm none', sign({ algorithm: 'none' }));
    post('digest not signed', sign({ headers: '(request-target) host date' }));
    post('host not signed', sign({ headers: '(request-target) date digest' }));
    post('request target not signed', sign({ headers: 'host date digest' }));
    post('date not signed', sign({ headers: '(request-target) host digest' }));
    post('header signed twice', sign({ headers: '(request-target) host date date digest' }));
    post('wrong digest', sign({ digest: sha256Digest('another body') }));
    post('MD5 digest', sign({ digest: 'MD5=rL0Y20zC+Fzt72VPzMSk2A==' }));
    post('digest garbage', sign({ digest: 'SHA-256=@@@' }));
    post('digest of the body, body swapped (replayed headers)', sign({ signedBody: deliveryBody(t, actor, { content: 'original' }) }));
    post('signature made for another inbox (replayed)', sign({ signedPath: path === '/inbox' ? `/actors/${t.username}/inbox` : '/inbox' }));
    post('date 13 hours ago (replayed)', sign({ date: new Date(Date.now() - 13 * 3_600_000).toUTCString() }));
    post('date 2 hours ahead', sign({ date: new Date(Date.now() + 2 * 3_600_000).toUTCString() }));
    post('date in 1970', sign({ date: new Date(0).toUTCString() }));
    post('date garbage', sign({ date: 'yesterday, around noon' }));
    post('Signature-Input without Signature', { 'Content-Type': 'application/activity+json', 'Signature-Input': `sig1=("@method");keyid="${keyId}";created=${Math.floor(Date.now() / 1000)}` });
    post('RFC 9421 garbage', { 'Content-Type': 'application/activity+json', 'Signature-Input': 'sig1=((((', Signature: 'sig1=:????:' });
    post('RFC 9421 created 1 day ago', {
      'Content-Type': 'application/activity+json',
      'Content-Digest': `sha-256=:${sha256Digest(body).slice(8)}:`,
      'Signature-Input': `sig1=("@method" "@target-uri" "content-digest");keyid="${keyId}";created=${Math.floor(Date.now() / 1000) - 86_400}`,
      Signature: `sig1=:${Buffer.alloc(256, 1).toString('base64')}:`,
    });
    post('RFC 9421 fifty labels', {
      'Content-Type': 'application/activity+json',
      'Signature-Input': Array.from({ length: 50 }, (_, i) => `s${i}=("@method");keyid="${keyId}";created=1`).join(', '),
      Signature: Array.from({ length: 50 }, (_, i) => `s${i}=:YWJj:`).join(', '),
    });
    post('RFC 9421 keyid not a string', {
      'Content-Type': 'application/activity+json',
      'Signature-Input': `sig1=("@method");keyid=42;created=${Math.floor(Date.now() / 1000)}`, Signature: 'sig1=:YWJj:',
    });
    // The signatures below would be checked only after the body: they must fail at the signature all the same.
    for (const [ label, bad ] of MALFORMED_JSON.slice(0, 6)) {
      post(`malformed JSON (${label}), signed`, cavageHeaders({ method: 'post', path, host: t.host, body: bad, keyId }), { body: bad });
    }
    post('deeply nested JSON, signed', cavageHeaders({ method: 'post', path, host: t.host, body: nestedArrays(100_000), keyId }),
      { body: nestedArrays(100_000) });
    post('wrong media type', { ...sign(), 'Content-Type': 'text/plain' }, { expect: [ 415 ] });
    post('no media type', { Signature: sign().Signature, Date: sign().Date }, { expect: [ 415 ] });
    post('body over the limit', { ...sign(), 'Content-Type': 'application/activity+json' }, { body: 'x'.repeat(MIB + 10), expect: [ 413 ] });
    cases.push({ name: `${path}: chunked body over the limit`, method: 'POST', path, headers: sign(), body: 'x'.repeat(MIB + 10),
      chunked: true, expect: [ 413 ], jsonApi: true });
  }
  for (const [ label, name ] of [ [ 'unknown user', 'nobody' ], [ 'traversal', '..%2F..%2Fkeys' ], [ 'encoded NUL', 'alice%00' ],
    [ 'injection', enc('} ; DROP ALL ; {') ], [ 'very long', 'a'.repeat(3000) ] ]) {
    const path = `/actors/${name}/inbox`;
    cases.push({ name: `personal inbox of ${label}`, method: 'POST', path, body: '{}',
      headers: cavageHeaders({ method: 'post', path, host: t.host, body: '{}', keyId }), expect: [ 400, 401, 403, 404, 405 ], jsonApi: false });
  }
  for (const method of [ 'PUT', 'PATCH', 'DELETE' ]) {
    cases.push({ name: `shared inbox: ${method}`, method, path: '/inbox', headers: { 'Content-Type': 'application/activity+json' },
      body: method === 'DELETE' ? undefined : '{}', expect: [ 401, 403, 404, 405, 415 ], jsonApi: false });
  }
  return { name: 'HTTP signatures', cases };
}

function ssrfGroup(t: ActivityPubTarget): CaseGroup {
  const cases: HostileCase[] = [];
  for (const [ label, url ] of ssrfUrls(t.canaryPort)) {
    for (const path of [ '/inbox', `/actors/${t.username}/inbox` ]) {
      const body = deliveryBody(t, url);
      cases.push({ name: `${path}: actor and keyId at ${label}`, method: 'POST', path, body,
        headers: cavageHeaders({ method: 'post', path, host: t.host, body, keyId: `${url}#main-key` }), expect: [ 401 ], jsonApi: true });
    }
    const path = '/inbox';
    const other = `http://127.0.0.1:${t.canaryPort}/other`;
    const objectBody = JSON.stringify({ '@context': AS, id: `${other}/follow`, type: 'Follow', actor: other, object: url });
    cases.push({ name: `${path}: object at ${label}`, method: 'POST', path, body: objectBody,
      headers: cavageHeaders({ method: 'post', path, host: t.host, body: objectBody, keyId: `${other}#main-key` }), expect: [ 401 ], jsonApi: true });
    const contextBody = JSON.stringify({ '@context': url, id: `${other}/c`, type: 'Create', actor: other });
    cases.push({ name: `${path}: @context at ${label}`, method: 'POST', path, body: contextBody,
      headers: cavageHeaders({ method: 'post', path, host: t.host, body: contextBody, keyId: `${other}#main-key` }), expect: [ 401 ], jsonApi: true });
    cases.push(jsonCase(`outbox: Follow of ${label} without a valid token`, 'POST', `/actors/${t.username}/outbox`,
      { '@context': AS, type: 'Follow', object: url, to: [ url ] }, [ 401 ],
      { contentType: 'application/activity+json', headers: { Authorization: 'Bearer not.a.token' } }));
  }
  return { name: 'SSRF', cases };
}

function webhookGroup(t: ActivityPubTarget): CaseGroup {
  const cases: HostileCase[] = [];
  const auth = { Authorization: `Bearer ${t.token}` };
  for (const injection of SPARQL_INJECTIONS) {
    cases.push(jsonCase(`generate: action ${JSON.stringify(injection)}`, 'POST', '/webhooks', { action: injection }, [ 400 ], { headers: auth }));
  }
  for (const [ label, action ] of [ [ 'missing', undefined ], [ 'null', null ], [ 'number', 1 ], [ 'array', [ 'post-to-outbox' ] ],
    [ 'object', { name: 'post-to-outbox' } ], [ 'case changed', 'POST-TO-OUTBOX' ], [ 'padded', ' post-to-outbox ' ],
    [ 'prototype name', '__proto__' ], [ 'constructor', 'constructor' ], [ 'very long', 'x'.repeat(50_000) ] ]) {
    cases.push(jsonCase(`generate: action ${label}`, 'POST', '/webhooks', { action }, [ 400 ], { headers: auth }));
  }
  for (const [ label, body ] of MALFORMED_JSON.slice(0, 8)) {
    cases.push(jsonCase(`generate: malformed JSON, ${label}`, 'POST', '/webhooks', body, [ 400 ], { headers: auth }));
  }
  cases.push(jsonCase('generate: body over 64 KiB', 'POST', '/webhooks', { action: 'x'.repeat(70_000) }, [ 413 ], { headers: auth }));
  cases.push(jsonCase('generate: text/plain', 'POST', '/webhooks', '{"action":"post-to-outbox"}', [ 415 ], { headers: auth, contentType: 'text/plain' }));
  const unknown = [
    [ 'unknown secret', `/webhooks/${'A'.repeat(43)}` ],
    [ 'secret one character short', `${t.webhookPath.slice(0, -1)}` ],
    [ 'secret one character long', `${t.webhookPath}A` ],
    [ 'secret with traversal', `/webhooks/../webhooks/${'B'.repeat(43)}` ],
    [ 'encoded traversal', `/webhooks/%2e%2e/auth/signup` ],
    [ 'secret with NUL', `/webhooks/${'C'.repeat(42)}%00` ],
    [ 'secret with injection', `/webhooks/${enc('} ; DROP ALL ; {')}` ],
    [ 'double slash', `//webhooks//${'D'.repeat(43)}` ],
    [ 'upper-cased container', `/WEBHOOKS/${'E'.repeat(43)}` ],
    [ 'encoded container name', `/%77ebhooks/${'F'.repeat(43)}` ],
    [ 'query string', `/webhooks/${'G'.repeat(43)}?secret=${'H'.repeat(43)}` ],
  ];
  // A path that is not a webhook's falls to the read-only LDP paths when it names none: refused there (401);
  // one with dot segments is no valid path (400).
  for (const [ label, path ] of unknown) {
    cases.push(jsonCase(`receive: ${label}`, 'POST', path, { hello: 'world' }, [ 400, 401, 404, 405 ], { jsonApi: false }));
    cases.push(jsonCase(`receive: ${label}, deep JSON`, 'POST', path, nestedArrays(100_000), [ 400, 401, 404, 405 ], { jsonApi: false }));
  }
  const live = t.webhookPath;
  for (const [ label, body ] of MALFORMED_JSON) {
    cases.push(jsonCase(`live webhook: malformed JSON, ${label}`, 'POST', live, body, [ 400 ]));
  }
  cases.push(jsonCase('live webhook: text/plain', 'POST', live, '{"a":1}', [ 415 ], { contentType: 'text/plain' }));
  cases.push(jsonCase('live webhook: multipart', 'POST', live, '--x\r\n\r\n{}\r\n--x--', [ 415 ], { contentType: 'multipart/form-data; boundary=x' }));
  cases.push(jsonCase('live webhook: body over 1 MiB', 'POST', live, `{"a":"${'x'.repeat(MIB)}"}`, [ 413 ]));
  cases.push({ ...jsonCase('live webhook: chunked body over 1 MiB', 'POST', live, `{"a":"${'x'.repeat(MIB)}"}`, [ 413 ]), chunked: true });
  cases.push(jsonCase('live webhook: declared length over 1 MiB, short body', 'POST', live, '{}', [ 413 ],
    { headers: { 'Content-Length': String(2 * MIB) } }));
  for (const method of [ 'GET', 'PUT', 'PATCH' ]) {
    cases.push({ name: `live webhook: ${method}`, method, path: live, expect: [ 405 ], jsonApi: true });
  }
  cases.push({ name: 'live webhook: DELETE without token', method: 'DELETE', path: live, expect: [ 401 ], jsonApi: true });
  cases.push({ name: 'live webhook: DELETE with a forged token', method: 'DELETE', path: live, headers: { Authorization: 'Bearer a.b.c' }, expect: [ 401 ], jsonApi: true });
  cases.push({ name: 'live webhook: DELETE by an unknown user', method: 'DELETE', path: live,
    headers: { Authorization: `Bearer ${t.tokens.ghost}` }, expect: [ 401, 403, 404 ], jsonApi: true });
  // Only a local user reaches the container's handler (which takes neither method): anonymous, 401 first.
  cases.push({ name: 'container: PUT', method: 'PUT', path: '/webhooks/', headers: { 'Content-Type': 'text/turtle' }, body: '<a:b> <a:b> <a:b> .', expect: [ 401 ], jsonApi: true });
  cases.push({ name: 'container: DELETE', method: 'DELETE', path: '/webhooks/', expect: [ 401 ], jsonApi: true });
  cases.push({ name: 'container: PUT by a user', method: 'PUT', path: '/webhooks/', headers: { 'Content-Type': 'text/turtle', Authorization: `Bearer ${t.token}` },
    body: '<a:b> <a:b> <a:b> .', expect: [ 405 ], jsonApi: true });
  cases.push({ name: 'data root: GET without token', method: 'GET', path: '/webhook-data/', expect: [ 401, 403, 404 ], jsonApi: true });
  cases.push({ name: 'data root: PUT turtle', method: 'PUT', path: '/webhook-data/x', headers: { 'Content-Type': 'text/turtle' },
    body: '<a:b> <a:b> <a:b> .', expect: [ 401, 403 ], jsonApi: true });
  return { name: 'webhooks', cases };
}

function discoveryGroup(t: ActivityPubTarget): CaseGroup {
  const cases: HostileCase[] = [];
  const wf = '/.well-known/webfinger';
  const host = t.host;
  const odd: [string, string, readonly number[]][] = [
    [ 'no query', '', [ 400 ] ],
    [ 'empty resource', '?resource=', [ 400 ] ],
    [ 'repeated resource', `?resource=acct:${t.username}@${host}&resource=acct:${t.username}@${host}`, [ 400 ] ],
    [ 'other host', `?resource=acct:${t.username}@evil.example`, [ 404 ] ],
    [ 'private host', `?resource=acct:${t.username}@127.0.0.1:${t.canaryPort}`, [ 404 ] ],
    [ 'metadata URL', `?resource=${enc('http://169.254.169.254/latest/meta-data/')}`, [ 404 ] ],
    [ 'file URL', `?resource=${enc('file:///etc/passwd')}`, [ 404 ] ],
    [ 'no at sign', '?resource=acct:alice', [ 400 ] ],
    [ 'at sign only', '?resource=acct:@', [ 400 ] ],
    [ 'traversal', `?resource=acct:..%2F..%2Fkeys@${host}`, [ 400, 404 ] ],
    [ 'bad percent encoding', '?resource=acct%3a%E0%A4%A@x', [ 400, 404 ] ],
    [ 'bad percent in user', `?resource=acct:%E0%A4%A@${host}`, [ 400, 404 ] ],
    [ 'NUL', `?resource=acct:${t.username}%00@${host}`, [ 400, 404 ] ],
    [ 'injection', `?resource=${enc(`acct:} ; DROP ALL ; {@${host}`)}`, [ 400, 404 ] ],
    [ 'quote injection', `?resource=${enc(`acct:a" } ; DROP ALL ; {"@${host}`)}`, [ 400, 404 ] ],
    [ 'host with path', `?resource=acct:${t.username}@${host}/x`, [ 400 ] ],
    [ 'host with userinfo', `?resource=acct:${t.username}@a@${host}`, [ 400, 404 ] ],
    [ 'homoglyph user', `?resource=${enc(`acct:\u0430lice@${host}`)}`, [ 404 ] ],
    [ 'RTL override user', `?resource=${enc(`acct:al\u202eice@${host}`)}`, [ 404 ] ],
    [ 'very long', `?resource=acct:${'a'.repeat(6000)}@${host}`, [ 400, 404, 414 ] ],
    [ 'not a URI', `?resource=${enc('not a uri at all')}`, [ 400 ] ],
    [ 'javascript URI', `?resource=${enc('javascript:alert(1)')}`, [ 404 ] ],
    [ 'rel injection', `?resource=acct:${t.username}@${host}&rel=${enc('"><script>')}`, [ 200 ] ],
    [ 'benign: the user, odd case', `?resource=acct:${t.username.toUpperCase()}@${host.toUpperCase()}`, [ 200 ] ],
  ];
  for (const [ label, query, expect ] of odd) {
    cases.push({ name: `webfinger: ${label}`, method: 'GET', path: `${wf}${query}`, expect, jsonApi: true });
  }
  cases.push({ name: 'webfinger: POST', method: 'POST', path: `${wf}?resource=acct:${t.username}@${host}`,
    headers: { 'Content-Type': 'application/json' }, body: '{}', expect: [ 405 ], jsonApi: true });
  for (const path of [ '/.well-known/nodeinfo', '/nodeinfo/2.1', '/.well-known/host-meta' ]) {
    cases.push({ name: `${path}: odd query`, method: 'GET', path: `${path}?x=${enc('} ; DROP ALL ; {')}&x=%00`, expect: [ 200, 404 ], jsonApi: false });
    cases.push({ name: `${path}: DELETE`, method: 'DELETE', path, expect: [ 404, 405 ], jsonApi: false });
  }
  return { name: 'discovery', cases };
}

function pathGroup(t: ActivityPubTarget): CaseGroup {
  const cases: HostileCase[] = [];
  const reads: [string, string][] = [
    [ 'traversal to keys', '/actors/../keys/jwt-es256.json' ],
    [ 'encoded traversal to keys', '/actors/%2e%2e/keys/jwt-es256.json' ],
    [ 'double-encoded traversal', '/actors/%252e%252e/keys/jwt-es256.json' ],
    [ 'backslash traversal', '/actors/..\\keys\\jwt-es256.json' ],
    [ 'traversal to /etc/passwd', '/../../../../etc/passwd' ],
    [ 'actor key file by name', `/actors/${t.username}/private.pem` ],
    [ 'actor dir', `/actors/${t.username}/` ],
    [ 'actor with NUL', `/actors/${t.username}%00` ],
    [ 'actor with encoded slash', `/actors/${t.username}%2F..%2F..%2Fkeys` ],
    [ 'actor .acl', `/actors/${t.username}.acl` ],
    [ 'actor .meta', `/actors/${t.username}.meta` ],
    [ 'container .acl', '/actors/.acl' ],
    [ 'internal data', '/.internal/accounts/' ],
    [ 'account data', '/.account/' ],
    [ 'homoglyph actor', `/actors/${enc(`\u0430${t.username.slice(1)}`)}` ],
    [ 'RTL actor', `/actors/${enc('al\u202eice')}` ],
    [ 'very long name', `/actors/${'a'.repeat(6000)}` ],
    [ 'injection in path', `/actors/${enc('} ; DROP ALL ; {')}` ],
    [ 'raw quote and brackets in path', '/actors/a"<>{}|^`' ],
    [ 'raw space in path', '/actors/a b' ],
    [ 'absolute-form target, private host', `http://127.0.0.1:${t.canaryPort}/actor` ],
    [ 'asterisk target', '*' ],
    [ 'collection with injection in query', `/actors/${t.username}/outbox?page=${enc('} ; DROP ALL ; {')}` ],
    [ 'collection with huge page number', `/actors/${t.username}/followers?page=99999999999999999999` ],
    [ 'collection with negative page', `/actors/${t.username}/followers?page=-1` ],
    [ 'objects container with injection query', `/objects/?x=${enc('"""} ; DROP ALL ; {"""')}` ],
    [ 'context.json with junk', '/context.json?%00=%ff' ],
  ];
  for (const [ label, path ] of reads) {
    cases.push({ name: `GET ${label}`, method: 'GET', path, headers: { Accept: 'application/activity+json' },
      expect: [ 200, 400, 401, 403, 404, 405, 414 ], jsonApi: false });
  }
  const writes: [string, string, string][] = [
    [ 'PUT', `/actors/${t.username}`, 'application/ld+json' ],
    [ 'DELETE', `/actors/${t.username}`, '' ],
    [ 'PATCH', `/actors/${t.username}`, 'application/sparql-update' ],
    [ 'POST', '/actors/', 'application/json' ],
    [ 'POST', '/actors', 'application/json' ],
    [ 'PUT', `/actors/${t.username}.acl`, 'text/turtle' ],
    [ 'PUT', `/actors/${t.username}/outbox`, 'application/ld+json' ],
    [ 'DELETE', `/actors/${t.username}/outbox`, '' ],
    [ 'DELETE', '/actors/', '' ],
    [ 'DELETE', '/', '' ],
    [ 'PATCH', `/actors/${t.username}`, 'text/n3' ],
  ];
  for (const [ method, path, type ] of writes) {
    const body = type === 'application/sparql-update' ? 'DELETE WHERE { ?s ?p ?o }' : type === 'text/turtle' || type === 'text/n3' ?
      '<a:b> <a:b> <a:b> .' : type ? '{"type":"Person","name":"mallory"}' : undefined;
    cases.push({ name: `${method} ${path} (${type || 'no body'})`, method, path, headers: type ? { 'Content-Type': type } : {}, body,
      expect: [ 401, 403, 404, 405, 409 ], jsonApi: false });
  }
  for (const [ label, method ] of [ [ 'unknown method', 'FOO' ], [ 'TRACE', 'TRACE' ], [ 'lower-case get', 'get' ] ]) {
    // Unknown to Node's parser (FOO, lower-case get): 400; TRACE reaches the server: 405.
    cases.push({ name: `${label} on an actor`, method, path: `/actors/${t.username}`, expect: method === 'TRACE' ? [ 405 ] : [ 400 ], jsonApi: true });
  }
  cases.push({ name: 'bad header: duplicate Content-Length', method: 'POST', path: '/inbox',
    headers: { 'Content-Type': 'application/activity+json', 'Content-Length': '2', 'content-length': '3' }, body: '{}', expect: [ 400 ], jsonApi: true });
  cases.push({ name: 'bad header: Content-Length and chunked', method: 'POST', path: '/inbox',
    headers: { 'Content-Type': 'application/activity+json', 'Content-Length': '2', 'Transfer-Encoding': 'chunked' }, body: '2\r\n{}\r\n0\r\n\r\n',
    expect: [ 400 ], jsonApi: true });
  cases.push({ name: 'bad header: negative Content-Length', method: 'POST', path: '/auth/signup',
    headers: { 'Content-Type': 'application/json', 'Content-Length': '-1' }, body: '', expect: [ 400 ], jsonApi: true });
  cases.push({ name: 'bad header: Host missing a port', method: 'GET', path: `/actors/${t.username}`, headers: { Host: 'localhost' },
    expect: [ 200, 400, 404 ], jsonApi: false });
  cases.push({ name: 'bad header: Host with injection', method: 'GET', path: `/actors/${t.username}`, headers: { Host: 'a"}; DROP ALL; {' },
    expect: [ 200, 400, 404 ], jsonApi: false });
  cases.push({ name: 'bad header: Accept garbage', method: 'GET', path: `/actors/${t.username}`, headers: { Accept: ';;;q=x,,*/*;q=NaN' },
    expect: [ 200, 406 ], jsonApi: false });
  return { name: 'paths and methods', cases };
}

function sizeGroup(t: ActivityPubTarget): CaseGroup {
  const cases: HostileCase[] = [];
  const token = { Authorization: `Bearer ${t.token}` };
  const outbox = `/actors/${t.username}/outbox`;
  // Only invalid activities: a valid one would be a legitimate write.
  cases.push(jsonCase('outbox: 100k nested arrays', 'POST', outbox, nestedArrays(100_000), [ 400 ], { headers: token }));
  cases.push(jsonCase('outbox: 100k nested objects', 'POST', outbox, nestedObjects(100_000), [ 400 ], { headers: token }));
  cases.push(jsonCase('outbox: 50k keys, no type', 'POST', outbox, manyKeys(50_000), [ 400 ], { headers: token }));
  cases.push(jsonCase('outbox: body over the limit', 'POST', outbox, `{"content":"${'x'.repeat(MIB)}"}`, [ 413 ], { headers: token }));
  cases.push({ ...jsonCase('outbox: chunked body over the limit', 'POST', outbox, `{"content":"${'x'.repeat(MIB)}"}`, [ 413 ], { headers: token }), chunked: true });
  for (const [ label, body ] of MALFORMED_JSON.slice(0, 10)) {
    cases.push(jsonCase(`outbox: malformed JSON, ${label}`, 'POST', outbox, body, [ 400 ], { headers: token }));
  }
  for (const [ label, id ] of BAD_IRIS.slice(0, 12)) {
    // actor of another server: refused before anything is stored.
    cases.push(jsonCase(`outbox: foreign actor with bad @id (${label})`, 'POST', outbox,
      { '@context': AS, id, type: 'Note', actor: 'https://evil.example/actor', content: 'x' }, [ 400, 403 ], { headers: token }));
  }
  cases.push(jsonCase('outbox: bad @context, activity for another actor', 'POST', outbox,
    { '@context': `http://127.0.0.1:${t.canaryPort}/ctx`, type: 'Note', actor: 'https://evil.example/a' }, [ 400, 403 ], { headers: token }));
  return { name: 'sizes and nesting', cases };
}

/** Writes and reads by who may not: refused (401 anonymous, 403 known, 404 where a resource must not be revealed), nothing changed. */
function authorizationGroup(t: ActivityPubTarget): CaseGroup {
  const cases: HostileCase[] = [];
  const other = { Authorization: `Bearer ${t.otherToken}` };
  const turtle = { 'Content-Type': 'text/turtle' };
  const json = { 'Content-Type': 'application/activity+json' };
  const defaced = JSON.stringify({ '@context': AS, type: 'Note', content: 'defaced', to: [ `${AS}#Public` ] });
  for (const kind of [ 'public', 'private' ] as const) {
    for (const path of [ t.notes[kind].object, t.notes[kind].activity ]) {
      const hidden = kind === 'private';
      cases.push({ name: `${kind} ${path.split('/')[1]}: GET anonymous`, method: 'GET', path, headers: { Accept: 'application/activity+json' },
        expect: hidden ? [ 404 ] : [ 200 ], jsonApi: true });
      cases.push({ name: `${kind} ${path.split('/')[1]}: GET Turtle by another user`, method: 'GET', path, headers: { Accept: 'text/turtle', ...other },
        expect: hidden ? [ 404 ] : [ 200 ], jsonApi: true });
      for (const [ method, headers, body ] of [ [ 'PUT', json, defaced ], [ 'PUT', turtle, '<a:s> <a:p> "defaced" .' ], [ 'PATCH', { 'Content-Type': 'text/n3' }, '' ],
        [ 'DELETE', {}, undefined ], [ 'POST', json, defaced ] ] as const) {
        cases.push({ name: `${kind} ${path.split('/')[1]}: ${method} ${headers['Content-Type'] ?? ''} anonymous`, method, path, headers, body,
          expect: [ 401 ], jsonApi: true });
        cases.push({ name: `${kind} ${path.split('/')[1]}: ${method} ${headers['Content-Type'] ?? ''} by another user`, method, path,
          headers: { ...headers, ...other }, body, expect: hidden ? [ 404 ] : [ 403 ], jsonApi: true });
        cases.push({ name: `${kind} ${path.split('/')[1]}: ${method} with a forged token`, method, path,
          headers: { ...headers, Authorization: 'Bearer a.b.c' }, body, expect: [ 401 ], jsonApi: true });
      }
    }
  }
  for (const [ method, path ] of [ [ 'PUT', '/spam/file' ], [ 'PUT', '/sparql?graph=x' ], [ 'POST', '/objects/' ], [ 'POST', '/activities/' ],
    [ 'POST', '/' ], [ 'DELETE', '/objects/' ], [ 'PUT', `/actors/${t.username}` ], [ 'DELETE', `/actors/${t.username}/outbox` ] ]) {
    const body = method === 'DELETE' ? undefined : '<a:s> <a:p> <a:o> .';
    cases.push({ name: `LDP ${method} ${path} anonymous`, method, path, headers: turtle, body, expect: [ 401 ], jsonApi: true });
    cases.push({ name: `LDP ${method} ${path} by another user`, method, path, headers: { ...turtle, ...other }, body, expect: [ 403 ], jsonApi: true });
  }
  cases.push({ name: 'webhook data of another user', method: 'GET', path: `/webhook-data/${t.username}/`, headers: other, expect: [ 403 ], jsonApi: true });
  cases.push({ name: 'outbox POST as another user', method: 'POST', path: `/actors/${t.username}/outbox`, headers: { ...json, ...other }, body: defaced,
    expect: [ 403 ], jsonApi: true });
  return { name: 'authorization', cases };
}

export function activityPubGroups(target: ActivityPubTarget): CaseGroup[] {
  return [
    authGroup(target), jwtGroup(target), signatureGroup(target), ssrfGroup(target), webhookGroup(target), discoveryGroup(target),
    pathGroup(target), sizeGroup(target), authorizationGroup(target),
  ];
}

