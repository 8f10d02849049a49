/**
 * SPARQL 1.1 query results (SELECT bindings or an ASK boolean): read from the store's JSON answer,
 * written as JSON, XML, CSV or TSV.
 *
 * The /sparql endpoint always asks the store for JSON and writes the format the client negotiated itself:
 * stores differ in what they make of the other formats (Virtuoso's TSV is CSV with tabs, not SPARQL TSV;
 * its JSON uses the pre-1.1 `typed-literal`), so clients get the same answer whatever the store.
 */

export const SPARQL_JSON = 'application/sparql-results+json';
export const SPARQL_XML = 'application/sparql-results+xml';
export const CSV = 'text/csv';
export const TSV = 'text/tab-separated-values';

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const RDF_LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';

export interface ResultTerm {
  type: 'uri' | 'literal' | 'bnode';
  value: string;
  datatype?: string;
  'xml:lang'?: string;
}

export type ResultRow = Record<string, ResultTerm>;

export type SparqlResults =
  | { kind: 'bindings'; vars: string[]; rows: ResultRow[] }
  | { kind: 'boolean'; value: boolean };

interface RawTerm {
  type?: unknown;
  value?: unknown;
  datatype?: unknown;
  'xml:lang'?: unknown;
}

interface RawResults {
  head?: { vars?: unknown };
  boolean?: unknown;
  results?: { bindings?: unknown };
}

export class SparqlResultsFormatError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'SparqlResultsFormatError';
  }
}

function normaliseTerm(raw: RawTerm): ResultTerm {
  const value = typeof raw.value === 'string' ? raw.value : String(raw.value ?? '');
  switch (raw.type) {
    case 'uri':
      return { type: 'uri', value };
    case 'bnode':
      return { type: 'bnode', value };
    case 'literal':
    case 'typed-literal': {
      const term: ResultTerm = { type: 'literal', value };
      if (typeof raw['xml:lang'] === 'string' && raw['xml:lang'] !== '') {
        term['xml:lang'] = raw['xml:lang'];
      } else if (typeof raw.datatype === 'string' && raw.datatype !== '' && raw.datatype !== XSD_STRING &&
        raw.datatype !== RDF_LANG_STRING) {
        term.datatype = raw.datatype;
      }
      return term;
    }
    default:
      throw new SparqlResultsFormatError(`Unknown RDF term type in the store's results: ${String(raw.type)}`);
  }
}

/**
 * Reads application/sparql-results+json as stores write it, accepting Virtuoso's `typed-literal`
 * and booleans written as strings or numbers.
 */
export function parseJsonResults(body: string): SparqlResults {
  let json: RawResults;
  try {
    json = JSON.parse(body) as RawResults;
  } catch {
    throw new SparqlResultsFormatError('The store did not answer valid JSON results.');
  }
  if (typeof json !== 'object' || json === null) {
    throw new SparqlResultsFormatError('The store did not answer a JSON results object.');
  }
  if ('boolean' in json) {
    const value = json.boolean;
    return { kind: 'boolean', value: value === true || value === 'true' || value === 1 || value === '1' };
  }
  const rawRows = json.results?.bindings;
  if (!Array.isArray(rawRows)) {
    throw new SparqlResultsFormatError('The store answered JSON without results.');
  }
  const rows = rawRows.map((rawRow: unknown): ResultRow => {
    const row: ResultRow = {};
    for (const [ name, term ] of Object.entries((rawRow ?? {}) as Record<string, RawTerm>)) {
      row[name] = normaliseTerm(term);
    }
    return row;
  });
  const vars = Array.isArray(json.head?.vars) ? (json.head!.vars as unknown[]).map(String) : [];
  // Some stores leave out variables that are never bound; keep every variable seen.
  for (const row of rows) {
    for (const name of Object.keys(row)) {
      if (!vars.includes(name)) {
        vars.push(name);
      }
    }
  }
  return { kind: 'bindings', vars, rows };
}

export function writeJsonResults(results: SparqlResults): string {
  if (results.kind === 'boolean') {
    return JSON.stringify({ head: {}, boolean: results.value });
  }
  return JSON.stringify({ head: { vars: results.vars }, results: { bindings: results.rows }});
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/gu, (char): string => {
    switch (char) {
      case '<': return '&lt;';
      case '>': return '&gt;';
      case '&': return '&amp;';
      case '"': return '&quot;';
      default: return '&apos;';
    }
  // Characters XML 1.0 cannot carry at all are dropped.
  // eslint-disable-next-line no-control-regex
  }).replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/gu, '');
}

function xmlTerm(term: ResultTerm): string {
  switch (term.type) {
    case 'uri':
      return `<uri>${escapeXml(term.value)}</uri>`;
    case 'bnode':
      return `<bnode>${escapeXml(term.value)}</bnode>`;
    default: {
      if (term['xml:lang']) {
        return `<literal xml:lang="${escapeXml(term['xml:lang'])}">${escapeXml(term.value)}</literal>`;
      }
      if (term.datatype) {
        return `<literal datatype="${escapeXml(term.datatype)}">${escapeXml(term.value)}</literal>`;
      }
      return `<literal>${escapeXml(term.value)}</literal>`;
    }
  }
}

export function writeXmlResults(results: SparqlResults): string {
  const lines = [ '<?xml version="1.0" encoding="UTF-8"?>', '<sparql xmlns="http://www.w3.org/2005/sparql-results#">' ];
  if (results.kind === 'boolean') {
    lines.push('  <head/>', `  <boolean>${results.value}</boolean>`);
  } else {
    lines.push('  <head>');
    for (const name of results.vars) {
      lines.push(`    <variable name="${escapeXml(name)}"/>`);
    }
    lines.push('  </head>', '  <results>');
    for (const row of results.rows) {
      lines.push('    <result>');
      for (const name of results.vars) {
        const term = row[name];
        if (term) {
          lines.push(`      <binding name="${escapeXml(name)}">${xmlTerm(term)}</binding>`);
        }
      }
      lines.push('    </result>');
    }
    lines.push('  </results>');
  }
  lines.push('</sparql>');
  return `${lines.join('\n')}\n`;
}

function csvField(text: string): string {
  return /[",\r\n]/u.test(text) ? `"${text.replace(/"/gu, '""')}"` : text;
}

/** SPARQL 1.1 CSV: plain values, CRLF line ends; ASK answers as Jena does (`_askResult`). */
export function writeCsvResults(results: SparqlResults): string {
  if (results.kind === 'boolean') {
    return `_askResult\r\n${results.value}\r\n`;
  }
  const lines = [ results.vars.map(csvField).join(',') ];
  for (const row of results.rows) {
    lines.push(results.vars.map((name): string => {
      const term = row[name];
      if (!term) {
        return '';
      }
      return csvField(term.type === 'bnode' ? `_:${term.value}` : term.value);
    }).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

function escapeTurtleString(text: string): string {
  return text.replace(/[\\"\n\r\t]/gu, (char): string => {
    switch (char) {
      case '\\': return '\\\\';
      case '"': return '\\"';
      case '\n': return '\\n';
      case '\r': return '\\r';
      default: return '\\t';
    }
  });
}

function escapeIri(iri: string): string {
  // Characters IRIREF cannot hold are written as UCHARs.
  // eslint-disable-next-line no-control-regex
  return iri.replace(/[\u0000-\u0020<>"{}|^`\\]/gu, (char): string =>
    `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

function tsvTerm(term: ResultTerm): string {
  switch (term.type) {
    case 'uri':
      return `<${escapeIri(term.value)}>`;
    case 'bnode':
      return `_:${term.value}`;
    default: {
      const lexical = `"${escapeTurtleString(term.value)}"`;
      if (term['xml:lang']) {
        return `${lexical}@${term['xml:lang']}`;
      }
      return term.datatype ? `${lexical}^^<${escapeIri(term.datatype)}>` : lexical;
    }
  }
}

/** SPARQL 1.1 TSV: `?var` headers, terms in Turtle syntax, LF line ends. */
export function writeTsvResults(results: SparqlResults): string {
  if (results.kind === 'boolean') {
    return `?_askResult\n${results.value}\n`;
  }
  const lines = [ results.vars.map((name): string => `?${name}`).join('\t') ];
  for (const row of results.rows) {
    lines.push(results.vars.map((name): string => (row[name] ? tsvTerm(row[name]) : '')).join('\t'));
  }
  return `${lines.join('\n')}\n`;
}

/** Writes the results in one of the four result media types. */
export function writeResults(results: SparqlResults, mediaType: string): string {
  switch (mediaType) {
    case SPARQL_XML: return writeXmlResults(results);
    case CSV: return writeCsvResults(results);
    case TSV: return writeTsvResults(results);
    default: return writeJsonResults(results);
  }
}
