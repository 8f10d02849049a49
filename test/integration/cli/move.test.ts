/**
 * Moving an installation to another store, as an operator would: `fedpod export` of a stopped
 * server's embedded store, `fedpod import` into Apache Jena Fuseki (TDB2, a dataset it creates), into
 * Virtuoso (a plain SPARQL endpoint, loaded by SPARQL updates) and into a new embedded store; the
 * quads and graphs counted by SPARQL on both sides, then the resources (RDF and binary, with their
 * content type and modification date) read back over HTTP from a server started on the new store.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Parser } from 'n3';
import { sharedServers } from '../../support/env';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { FUSEKI_AUTH } from '../../support/fuseki';
import { makeTempDir, REPO_ROOT, spawnLogged } from '../../support/processes';
import { httpRequest } from '../../support/sparql';

const BIN = path.join(REPO_ROOT, 'bin', 'fedpod.js');
/** Every byte value: a body no text decoding survives. */
const BYTES = Buffer.from(Array.from({ length: 256 }, (_, index): number => index));
const EMBEDDED_AUTH = `Basic ${Buffer.from('admin:admin').toString('base64')}`;

/** Runs `fedpod <args>` to its end; its exit code and what it wrote. */
async function fedpod(args: string[]): Promise<{ code: number | null; log: string }> {
  const proc = await spawnLogged(process.execPath, [ BIN, ...args, '--log-format', 'pretty' ], { name: `fedpod-${args[0]}` });
  const { code } = await proc.exited;
  return { code, log: readFileSync(proc.logFile, 'utf8') };
}

/** One number a SELECT of `?n` answers on a store. */
async function count(queryUrl: string, query: string, authorization?: string): Promise<number> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json' };
  if (authorization) {
    headers.authorization = authorization;
  }
  const answer = await httpRequest(queryUrl, { method: 'POST', headers, body: new URLSearchParams({ query }).toString() });
  expect(answer.status).toBe(200);
  return Number((JSON.parse(answer.body) as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0].n.value);
}

const QUADS = 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }';
const GRAPHS = 'SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }';

/** The quads of an export, one line each, sorted. */
function linesOf(exportDir: string): string[] {
  return readFileSync(path.join(exportDir, 'dataset.nq'), 'utf8').split('\n').filter((line): boolean => line !== '').sort();
}

interface Seen {
  status: number;
  contentType: string | null;
  lastModified: string | null;
  body: Buffer;
}

async function read(url: string): Promise<Seen> {
  const answer = await fetch(url, { headers: { accept: 'text/turtle, */*;q=0.5' }});
  return { status: answer.status, contentType: answer.headers.get('content-type'), lastModified: answer.headers.get('last-modified'),
    body: Buffer.from(await answer.arrayBuffer()) };
}

describe('fedpod export and import', (): void => {
  let source: FedpodServer;
  let baseUrl: string;
  const resources = [ 'notes/', 'notes/one', 'notes/sub/', 'notes/sub/two', 'notes/bytes.bin' ];
  const seen = new Map<string, Seen>();
  let sourceQuads: number;
  let sourceGraphs: number;
  const exportDir = path.join(makeTempDir('fedpod-export-'), 'out');
  let started: FedpodServer | undefined;

  beforeAll(async(): Promise<void> => {
    source = await startFedpod({ config: 'ldp' });
    baseUrl = source.baseUrl;
    const put = async(target: string, body: RequestInit['body'], headers: Record<string, string>): Promise<void> => {
      const answer = await fetch(`${baseUrl}${target}`, { method: 'PUT', body, headers });
      expect(answer.status).toBe(201);
    };
    await put('notes/one', '<#it> <http://schema.org/name> "Note \\"one\\""@en ; <http://schema.org/about> <#topic> .', { 'content-type': 'text/turtle' });
    await put('notes/sub/', '', { 'content-type': 'text/turtle', link: '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"' });
    await put('notes/sub/two', '<#it> <http://schema.org/text> "line one\\nline two" .', { 'content-type': 'text/turtle' });
    await put('notes/bytes.bin', BYTES, { 'content-type': 'application/x-test-bytes' });
    for (const name of resources) {
      seen.set(name, await read(`${baseUrl}${name}`));
    }
    const queryUrl = `http://127.0.0.1:${source.storePort}/localData/query`;
    sourceQuads = await count(queryUrl, QUADS, EMBEDDED_AUTH);
    sourceGraphs = await count(queryUrl, GRAPHS, EMBEDDED_AUTH);
    // While the server runs, its store's files are not read: it says how to export instead.
    const refused = await fedpod([ 'export', '--data-dir', source.dataDir, '--out', path.join(makeTempDir('fedpod-export-'), 'out') ]);
    expect(refused.code).toBe(1);
    expect(refused.log).toMatch(/is in use by process \d+.*--sparql-endpoint http:\/\/127\.0\.0\.1:<store-port>\//u);
    await source.stop();
  });

  afterEach(async(): Promise<void> => {
    await started?.stop();
    started = undefined;
  });

  /** Every resource read from `server` as it was read from the source. */
  async function expectSameResources(url: string): Promise<void> {
    for (const name of resources) {
      const again = await read(`${url}${name}`);
      const before = seen.get(name)!;
      expect({ name, status: again.status, contentType: again.contentType, lastModified: again.lastModified })
        .toEqual({ name, status: 200, contentType: before.contentType, lastModified: before.lastModified });
      if (name === 'notes/bytes.bin') {
        expect(again.body.equals(BYTES)).toBe(true);
      } else {
        // The same triples, whatever order a store keeps them in.
        const triples = (body: Buffer): string[] => new Parser({ baseIRI: `${baseUrl}${name}` }).parse(body.toString('utf8'))
          .map((entry): string => `${entry.subject.value} ${entry.predicate.value} ${entry.object.value}`).sort();
        expect(triples(again.body)).toEqual(triples(before.body));
      }
    }
  }

  /** Starts Fedpod on a moved store under the source's base URL (the IRIs in the store are its). */
  async function startMoved(dataDir: string, extra: { sparqlEndpoint?: string; extraArgs?: string[] } = {}): Promise<string> {
    started = await startFedpod({ config: 'ldp', dataDir, baseUrl, ...extra });
    // Requests go to the new port; the server maps each onto its base URL by its path.
    return `http://localhost:${started.port}/`;
  }

  it('exports every quad of every graph and the binary file, with a manifest counting them', async(): Promise<void> => {
    const result = await fedpod([ 'export', '--data-dir', source.dataDir, '--out', exportDir ]);
    expect(result.code).toBe(0);
    const manifest = JSON.parse(readFileSync(path.join(exportDir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ format: 'fedpod-export', quads: sourceQuads, graphs: sourceGraphs, files: 1, fileBytes: BYTES.length,
      missingFiles: [], blankNodeQuads: 0, source: { store: 'embedded', dataset: 'localData', method: 'files' }});
    expect(linesOf(exportDir)).toHaveLength(sourceQuads);
    // A second export into the same directory would mix two: refused.
    const again = await fedpod([ 'export', '--data-dir', source.dataDir, '--out', exportDir ]);
    expect(again.code).toBe(1);
    expect(again.log).toMatch(/--out .* is not empty/u);
  });

  it('imports into a new dataset of Fuseki; counts match; a server on it serves the same resources', async(): Promise<void> => {
    const dataset = `moved${randomBytes(4).toString('hex')}`;
    const dataDir = makeTempDir('fedpod-moved-');
    const { fusekiUrl } = sharedServers();
    const result = await fedpod([ 'import', '--in', exportDir, '--sparql-endpoint', fusekiUrl, '--dataset', dataset, '--data-dir', dataDir ]);
    expect(result.log).toMatch(/Graph Store Protocol/u);
    expect(result.code).toBe(0);
    const queryUrl = `${fusekiUrl}/${dataset}/query`;
    expect(await count(queryUrl, QUADS, FUSEKI_AUTH)).toBe(sourceQuads);
    expect(await count(queryUrl, GRAPHS, FUSEKI_AUTH)).toBe(sourceGraphs);

    // Read back over the Graph Store Protocol: the very same quads.
    const back = path.join(makeTempDir('fedpod-export-'), 'out');
    expect((await fedpod([ 'export', '--sparql-endpoint', fusekiUrl, '--dataset', dataset, '--out', back ])).code).toBe(0);
    expect(linesOf(back)).toEqual(linesOf(exportDir));

    // Into a store that holds data: refused, nothing written; --force replaces the export's graphs.
    const twice = await fedpod([ 'import', '--in', exportDir, '--sparql-endpoint', fusekiUrl, '--dataset', dataset, '--data-dir', dataDir ]);
    expect(twice.code).toBe(1);
    expect(twice.log).toMatch(/already holds data.*--force/u);
    expect((await fedpod([ 'import', '--in', exportDir, '--sparql-endpoint', fusekiUrl, '--dataset', dataset, '--data-dir', dataDir,
      '--force' ])).code).toBe(0);
    expect(await count(queryUrl, QUADS, FUSEKI_AUTH)).toBe(sourceQuads);

    await expectSameResources(await startMoved(dataDir, { sparqlEndpoint: fusekiUrl, extraArgs: [ '--dataset', dataset ]}));
  });

  it('imports into Virtuoso by SPARQL updates; the export\'s graphs hold as many quads there', async(): Promise<void> => {
    const { sparqlEndpoint } = sharedServers();
    const dataDir = makeTempDir('fedpod-moved-');
    const result = await fedpod([ 'import', '--in', exportDir, '--sparql-endpoint', sparqlEndpoint, '--data-dir', dataDir, '--batch-size', '7' ]);
    expect(result.log).toMatch(/SPARQL updates/u);
    expect(result.code).toBe(0);
    const graphs = [ ...new Set(new Parser({ format: 'N-Quads' }).parse(readFileSync(path.join(exportDir, 'dataset.nq'), 'utf8'))
      .map((entry): string => entry.graph.value)) ];
    const within = `VALUES ?g { ${graphs.map((graph): string => `<${graph}>`).join(' ')} }`;
    expect(await count(sparqlEndpoint, `SELECT (COUNT(*) AS ?n) WHERE { ${within} GRAPH ?g { ?s ?p ?o } }`)).toBe(sourceQuads);
    expect(await count(sparqlEndpoint, `SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE { ${within} GRAPH ?g { ?s ?p ?o } }`)).toBe(sourceGraphs);
    // Virtuoso is shared with other data: only the export's own graphs make it "not empty".
    const twice = await fedpod([ 'import', '--in', exportDir, '--sparql-endpoint', sparqlEndpoint, '--data-dir', dataDir ]);
    expect(twice.code).toBe(1);
    expect(twice.log).toMatch(/already holds data in graphs of this export/u);
  });

  it('round-trips embedded to embedded: the same quads, and a server on the new data directory serves them', async(): Promise<void> => {
    const dataDir = makeTempDir('fedpod-moved-');
    const result = await fedpod([ 'import', '--in', exportDir, '--data-dir', dataDir ]);
    expect(result.code).toBe(0);
    expect(result.log).toMatch(/copied 1 files/u);
    const back = path.join(makeTempDir('fedpod-export-'), 'out');
    expect((await fedpod([ 'export', '--data-dir', dataDir, '--out', back ])).code).toBe(0);
    expect(linesOf(back)).toEqual(linesOf(exportDir));
    await expectSameResources(await startMoved(dataDir));
  });

  it('refuses an export cut short, before touching the store', async(): Promise<void> => {
    const dataDir = makeTempDir('fedpod-moved-');
    const damaged = path.join(makeTempDir('fedpod-export-'), 'out');
    expect((await fedpod([ 'export', '--data-dir', source.dataDir, '--out', damaged ])).code).toBe(0);
    const lines = linesOf(damaged);
    writeFileSync(path.join(damaged, 'dataset.nq'), `${lines.slice(1).join('\n')}\n`);
    const result = await fedpod([ 'import', '--in', damaged, '--data-dir', dataDir ]);
    expect(result.code).toBe(1);
    expect(result.log).toMatch(new RegExp(`holds ${sourceQuads - 1} quads .* counted ${sourceQuads}`, 'u'));
    expect((await fedpod([ 'import', '--in', makeTempDir('fedpod-empty-'), '--data-dir', dataDir ])).log).toMatch(/holds no manifest\.json/u);
  });
});
