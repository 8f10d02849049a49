/**
 * What "stored data" means for the abuse suite: every quad of the server's store (read through the
 * store's own SPARQL HTTP face, not through Fedpod) and the account / key files of its data dir.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { httpRequest } from '../../support/sparql';

/** Quads that would only exist if an injection reached the store: every payload names this IRI. */
export const INJECTION_MARKER = 'urn:fedpod-robustness:injected';

export interface StoreView {
  /** Where to send form-encoded SPARQL queries. */
  queryUrl: string;
  /** Authorization header for the store, if it needs one. */
  authorization?: string;
  /** Only graphs whose IRI starts with this are the server's (a shared store holds other tests' data). */
  graphPrefix: string;
  /** Page the snapshot query (ORDER BY + LIMIT): Virtuoso silently cuts results at 10,000 rows. */
  paged?: boolean;
  /** The stored default graph (Graph Store Protocol `?default`), when the store has one of its own. */
  defaultGraphUrl?: string;
}

export interface QuadEntry {
  /** N-Quads-like line, the unit of comparison. */
  line: string;
  s: string;
  p: string;
  o: string;
  /** '' for the stored default graph. */
  g: string;
}

export interface Snapshot {
  /** Sorted by line. */
  quads: QuadEntry[];
  hash: string;
  /** Relative path -> sha256 of every file under the watched data-dir folders. */
  files: Record<string, string>;
}

interface Term {
  type: string;
  value: string;
  datatype?: string;
  'xml:lang'?: string;
}

function termText(term: Term | undefined): string {
  if (term === undefined) {
    return '';
  }
  switch (term.type) {
    case 'uri': return `<${term.value}>`;
    // Blank node labels are not stable between queries.
    case 'bnode': return '_:b';
    default: {
      const text = JSON.stringify(term.value);
      if (term['xml:lang']) {
        return `${text}@${term['xml:lang'].toLowerCase()}`;
      }
      return term.datatype && term.datatype !== 'http://www.w3.org/2001/XMLSchema#string' ? `${text}^^<${term.datatype}>` : text;
    }
  }
}

async function select(view: StoreView, query: string): Promise<Record<string, Term>[]> {
  const answer = await httpRequest(view.queryUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/sparql-results+json',
      ...view.authorization ? { authorization: view.authorization } : {},
    },
    body: new URLSearchParams({ query }).toString(),
  });
  if (answer.status !== 200) {
    throw new Error(`store query failed (${answer.status}): ${answer.body.slice(0, 300)}`);
  }
  return (JSON.parse(answer.body) as { results: { bindings: Record<string, Term>[] } }).results.bindings;
}

function hashFiles(root: string, folders: readonly string[]): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string): void => {
    if (!fs.existsSync(dir)) {
      return;
    }
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else {
        files[path.relative(root, full)] = createHash('sha256').update(fs.readFileSync(full)).digest('hex');
      }
    }
  };
  for (const folder of folders) {
    walk(path.join(root, folder));
  }
  return files;
}

/** Folders of a data dir that hold accounts, actor key files and the token signing key. */
const PAGE = 5000;

export const ACCOUNT_FOLDERS = [ 'accounts', 'actors', 'keys' ] as const;

export async function snapshot(view: StoreView, dataDir: string): Promise<Snapshot> {
  const prefix = JSON.stringify(view.graphPrefix);
  const marker = `<${INJECTION_MARKER}>`;
  const rows: Record<string, Term>[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await select(view, `SELECT ?g ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o }
      FILTER(STRSTARTS(STR(?g), ${prefix}) || ?g = ${marker} || ?s = ${marker} || ?p = ${marker} || ?o = ${marker}) }
      ${view.paged === true ? `ORDER BY ?g ?s ?p ?o LIMIT ${PAGE} OFFSET ${offset}` : ''}`);
    // Not push(...page): a page can hold more rows than a call takes arguments.
    for (const row of page) {
      rows.push(row);
    }
    if (view.paged !== true || page.length < PAGE) {
      break;
    }
  }
  const quads: QuadEntry[] = rows.map((row) => {
    const [ s, p, o, g ] = [ termText(row.s), termText(row.p), termText(row.o), termText(row.g) ];
    return { line: `${s} ${p} ${o} ${g} .`, s, p, o, g };
  });
  if (view.defaultGraphUrl !== undefined) {
    const answer = await httpRequest(view.defaultGraphUrl, {
      headers: { accept: 'application/n-triples', ...view.authorization ? { authorization: view.authorization } : {} },
    });
    if (answer.status !== 200) {
      throw new Error(`reading the default graph failed (${answer.status})`);
    }
    for (const line of answer.body.split('\n').filter((text) => text.trim() !== '')) {
      quads.push({ line: `${line} # default graph`, s: line, p: '', o: '', g: '' });
    }
  }
  quads.sort((a, b) => (a.line < b.line ? -1 : a.line > b.line ? 1 : 0));
  return {
    quads,
    hash: createHash('sha256').update(quads.map((quad) => quad.line).join('\n')).digest('hex'),
    files: hashFiles(dataDir, ACCOUNT_FOLDERS),
  };
}

export interface SnapshotDiff {
  added: QuadEntry[];
  removed: QuadEntry[];
  changedFiles: string[];
}

export function diff(before: Snapshot, after: Snapshot): SnapshotDiff {
  const was = new Set(before.quads.map((quad) => quad.line));
  const now = new Set(after.quads.map((quad) => quad.line));
  const names = new Set([ ...Object.keys(before.files), ...Object.keys(after.files) ]);
  return {
    added: after.quads.filter((quad) => !was.has(quad.line)),
    removed: before.quads.filter((quad) => !now.has(quad.line)),
    changedFiles: [ ...names ].filter((name) => before.files[name] !== after.files[name]).sort(),
  };
}
