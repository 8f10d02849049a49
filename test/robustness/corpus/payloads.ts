/** Hostile building blocks shared by the corpus groups. */
import { INJECTION_MARKER } from '../support/snapshot';

/** The ActivityStreams namespace, as the corpora write it. */
export const AS = 'https://www.w3.org/ns/activitystreams';
export const MIB = 1024 * 1024;
export const enc = encodeURIComponent;

/** Bodies that are not JSON at all, or broken JSON. */
export const MALFORMED_JSON: readonly [string, string][] = [
  [ 'empty body', '' ],
  [ 'whitespace only', '   \n\t ' ],
  [ 'unterminated object', '{"type": "Note"' ],
  [ 'unterminated string', '{"type": "Note' ],
  [ 'trailing comma', '{"type": "Note",}' ],
  [ 'single quotes', "{'type': 'Note'}" ],
  [ 'unquoted keys', '{type: "Note"}' ],
  [ 'comments', '{"type": "Note" /* hi */}' ],
  [ 'NaN literal', '{"n": NaN}' ],
  [ 'bare word', 'Note' ],
  [ 'two documents', '{"a":1}{"b":2}' ],
  [ 'lone surrogate escape in key', '{"\\ud800": 1, "type": "Note"' ],
  [ 'bad escape', '{"type": "\\x41"}' ],
  [ 'control character in string', '{"type": "No\u0001te"' ],
  [ 'BOM then garbage', '\ufeff{]' ],
  [ 'NUL bytes', '\u0000\u0000\u0000' ],
  [ 'invalid UTF-8', '\xff\xfe{"a":1}' ],
  [ 'closing brackets only', ']]]]}}}}' ],
  [ 'deep but unbalanced', '['.repeat(5000) ],
  [ 'XML instead', '<?xml version="1.0"?><note/>' ],
];

/** Strings built to end a SPARQL term and start a new operation, in all quoting styles. */
export const SPARQL_INJECTIONS: readonly string[] = [
  '} ; DROP ALL ; {',
  '" } ; DROP ALL ; { "',
  '""" } ; DROP ALL ; { """',
  "''' } ; DROP ALL ; { '''",
  '\\u0022 } ; DROP ALL ; { \\u0022',
  '\u0022 } ; DROP ALL ; {',
  '\\" } ; DROP ALL ; #',
  `"> } ; INSERT DATA { GRAPH <${INJECTION_MARKER}> { <${INJECTION_MARKER}> <${INJECTION_MARKER}> "x" } } ; #`,
  `x" . } ; INSERT DATA { <${INJECTION_MARKER}> <${INJECTION_MARKER}> <${INJECTION_MARKER}> } #`,
  `> } INSERT DATA { GRAPH <${INJECTION_MARKER}> { <a:b> <a:b> <a:b> } } #`,
  '\\U0000003E } ; CLEAR ALL ; #',
  '\n} ; DROP ALL ; #\n',
  '\\',
  '"@en ; DROP ALL',
  '"^^<http://www.w3.org/2001/XMLSchema#string> } ; DROP ALL ; {',
  '$s ?p ?o } WHERE { ?s ?p ?o',
  '\u202e} ; LLA PORD ; {',
  'ＤＲＯＰ ＡＬＬ',
];

/** Values for `@id` that are not (safe) IRIs. */
export const BAD_IRIS: readonly [string, string][] = [
  [ 'plain words', 'not an iri' ],
  [ 'space', 'http://example.org/a b' ],
  [ 'double quote', 'http://example.org/a"b' ],
  [ 'angle brackets', 'http://example.org/<a>' ],
  [ 'closing angle bracket', 'http://example.org/a> } ; DROP ALL ; {' ],
  [ 'newline', 'http://example.org/a\nb' ],
  [ 'carriage return', 'http://example.org/a\rb' ],
  [ 'tab', 'http://example.org/a\tb' ],
  [ 'closing brace', 'http://example.org/a}b' ],
  [ 'backslash', 'http://example.org/a\\b' ],
  [ 'caret and pipe', 'http://example.org/a^b|c' ],
  [ 'backtick', 'http://example.org/a`b' ],
  [ 'unicode escape text', 'http://example.org/\\u003E' ],
  [ 'NUL', 'http://example.org/a\u0000b' ],
  [ 'empty string', '' ],
  [ 'javascript scheme', 'javascript:alert(1)' ],
  [ 'scheme only', 'urn:' ],
  [ 'blank node label', '_:b0' ],
  [ 'relative traversal', '../../../etc/passwd' ],
  [ 'very long', `http://example.org/${'a'.repeat(100_000)}` ],
  [ 'RTL override', 'http://example.org/\u202egnp.exe' ],
  [ 'injection marker IRI with payload', `${INJECTION_MARKER}> <${INJECTION_MARKER}> <${INJECTION_MARKER}> } ; #` ],
];

/** URLs a server must never fetch (without --allow-private-network), given the trap's port. */
export function ssrfUrls(canaryPort: number): [string, string][] {
  const p = canaryPort;
  return [
    [ '127.0.0.1', `http://127.0.0.1:${p}/actor` ],
    [ 'localhost', `http://localhost:${p}/actor` ],
    [ 'LOCALHOST upper case', `http://LOCALHOST:${p}/actor` ],
    [ 'localhost with final dot', `http://localhost.:${p}/actor` ],
    [ '[::1]', `http://[::1]:${p}/actor` ],
    [ 'IPv4-mapped IPv6 loopback', `http://[::ffff:127.0.0.1]:${p}/actor` ],
    [ 'IPv4-mapped IPv6 loopback, hex', `http://[0:0:0:0:0:ffff:7f00:1]:${p}/actor` ],
    [ 'decimal IP', `http://2130706433:${p}/actor` ],
    [ 'hex IP', `http://0x7f000001:${p}/actor` ],
    [ 'octal IP', `http://017700000001:${p}/actor` ],
    [ 'dotted octal IP', `http://0177.0.0.1:${p}/actor` ],
    [ 'short IP 127.1', `http://127.1:${p}/actor` ],
    [ '0.0.0.0', `http://0.0.0.0:${p}/actor` ],
    [ 'https on loopback', `https://127.0.0.1:${p}/actor` ],
    [ 'cloud metadata', 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' ],
    [ 'private 10/8', 'http://10.0.0.1/actor' ],
    [ 'private 192.168/16', 'http://192.168.0.1/actor' ],
    [ 'unique local IPv6', 'http://[fd00::1]/actor' ],
    [ 'link-local IPv6', 'http://[fe80::1]/actor' ],
    [ 'credentials in URL', `http://user:pass@127.0.0.1:${p}/actor` ],
    [ 'file:', 'file:///etc/passwd' ],
    [ 'data:', 'data:application/activity+json,{"id":"x","inbox":"x"}' ],
    [ 'gopher:', `gopher://127.0.0.1:${p}/_GET%20/%20HTTP/1.0` ],
    [ 'ftp:', `ftp://127.0.0.1:${p}/actor` ],
    [ 'javascript:', 'javascript:alert(1)' ],
    [ 'no host', 'http:///actor' ],
  ];
}

/** Usernames that must never become accounts or paths. */
export const BAD_USERNAMES: readonly [string, string][] = [
  [ 'dot-dot-slash', '../etc' ],
  [ 'encoded dot-dot', '%2e%2e%2fetc' ],
  [ 'slash', 'a/b' ],
  [ 'backslash', 'a\\b' ],
  [ 'NUL', 'alice\u0000' ],
  [ 'encoded NUL', 'alice%00' ],
  [ 'RTL override', 'al\u202eice' ],
  [ 'Cyrillic homoglyph a', '\u0430lice' ],
  [ 'fullwidth letters', 'ａｌｉｃｅ' ],
  [ 'upper case', 'Alice' ],
  [ 'too long', 'a'.repeat(65) ],
  [ 'very long', 'a'.repeat(10_000) ],
  [ 'dot first', '.acl' ],
  [ 'dot meta', '.meta' ],
  [ 'ends in .acl', 'mallory.acl' ],
  [ 'ends in .meta', 'mallory.meta' ],
  [ 'ends in .acr', 'mallory.acr' ],
  [ 'double dot inside', 'a..b' ],
  [ 'ends with dot', 'mallory.' ],
  [ 'space', 'mal lory' ],
  [ 'reserved: admin', 'admin' ],
  [ 'reserved: inbox', 'inbox' ],
  [ 'empty', '' ],
  [ 'SPARQL injection', '} ; DROP ALL ; {' ],
  [ 'quote injection', 'a" } ; DROP ALL ; { "' ],
  [ 'angle bracket injection', 'a> } ; DROP ALL ; { <' ],
  [ 'newline', 'mal\nlory' ],
  [ 'emoji', 'mal\u{1F600}lory' ],
];

/** Deeply nested JSON: `depth` levels of arrays, or of objects with one key. */
export function nestedArrays(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

export function nestedObjects(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

export function manyKeys(count: number, prefix = 'k'): string {
  const parts: string[] = [];
  for (let index = 0; index < count; index++) {
    parts.push(`"${prefix}${index}":${index}`);
  }
  return `{${parts.join(',')}}`;
}
