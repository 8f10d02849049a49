/**
 * Fedpod on Apache Jena Fuseki (the standalone server, TDB2): the run's shared Fuseki answers as the
 * store tests expect, and a Fuseki set up exactly as docs/operations.md ("Apache Jena Fuseki") says
 * gets its dataset from Fedpod at start-up through the admin protocol, holds what Fedpod writes,
 * serves it again after a restart of either, and keeps it through a kill -9.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sharedServers } from '../../support/env';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { FUSEKI_AUTH, startFuseki, type FusekiServer } from '../../support/fuseki';
import { isAlive, REPO_ROOT, tailFile } from '../../support/processes';
import { httpRequest, type HttpResult } from '../../support/sparql';
import { eventually } from '../../support/eventually';

const CONFIG = path.join(REPO_ROOT, 'config', 'ldp-sparql.json');
const TEXT = 'http://schema.org/text';
const FORM = 'application/x-www-form-urlencoded';
const unique = (): string => `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** What docs/operations.md tells an operator to do, read from its "Apache Jena Fuseki" section. */
interface FusekiDocs {
  shiroIni: string;
  /** The name of the jar the section runs. */
  jar: string;
  /** Fuseki's options after the jar, less `--port N` (the tests take a free port). */
  fusekiArgs: string[];
  /** `fedpod start`'s options, with the section's Fuseki address. */
  fedpodArgs: string[];
  /** The Fuseki address in the section's `fedpod start` line. */
  endpoint: string;
}

function readFusekiDocs(): FusekiDocs {
  const text = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'operations.md'), 'utf8');
  const start = text.indexOf('\n### Apache Jena Fuseki\n');
  const section = text.slice(start, text.indexOf('\n### ', start + 1));
  const shiroIni = /```ini\n([\s\S]*?)```/u.exec(section)?.[1];
  const fuseki = /^FUSEKI_BASE=\S+ java (?:-\S+ )*-jar (\S+\.jar) (.*)$/mu.exec(section);
  const fedpod = /^fedpod start (.*)$/mu.exec(section);
  if (start < 0 || shiroIni === undefined || fuseki === null || fedpod === null) {
    throw new Error('docs/operations.md: the "Apache Jena Fuseki" section lost its shiro.ini, its java line or its fedpod start line');
  }
  const fusekiArgs = fuseki[2].trim().split(/\s+/u);
  const port = fusekiArgs.indexOf('--port');
  if (port >= 0) fusekiArgs.splice(port, 2);
  const fedpodArgs = fedpod[1].trim().split(/\s+/u);
  const endpoint = fedpodArgs[fedpodArgs.indexOf('--sparql-endpoint') + 1];
  return { shiroIni, jar: fuseki[1], fusekiArgs, fedpodArgs, endpoint };
}

function basicAuth(args: string[]): string {
  const option = (name: string): string => args[args.indexOf(name) + 1];
  return `Basic ${Buffer.from(`${option('--sparql-user')}:${option('--sparql-password')}`).toString('base64')}`;
}

async function select(url: string, auth: string, query: string): Promise<string[]> {
  const answer = await httpRequest(url, { method: 'POST',
    headers: { authorization: auth, 'content-type': FORM, accept: 'application/sparql-results+json' },
    body: `query=${encodeURIComponent(query)}` });
  expect(answer.status).toBe(200);
  const rows = (JSON.parse(answer.body) as { results: { bindings: Record<string, { value: string }>[] } }).results.bindings;
  return rows.map((row) => Object.values(row).map((term) => term.value).join(' ')).sort();
}

describe('the shared Fuseki', () => {
  const base = (): string => sharedServers().fusekiUrl;

  it('runs on loopback, answers /$/ping to anyone and everything else only with its admin login', async () => {
    expect(isAlive(sharedServers().fusekiPid)).toBe(true);
    expect(base()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/u);
    expect((await httpRequest(`${base()}/$/ping`)).status).toBe(200);
    expect((await httpRequest(`${base()}/$/datasets`)).status).toBe(401);
    const wrong = `Basic ${Buffer.from('admin:wrong').toString('base64')}`;
    expect((await httpRequest(`${base()}/$/datasets`, { headers: { authorization: wrong } })).status).toBe(401);
    expect((await httpRequest(`${base()}/$/datasets`, { headers: { authorization: FUSEKI_AUTH } })).status).toBe(200);
  });

  it('gives a dataset made by form (as Fedpod makes it) the union of its named graphs as default graph', async () => {
    const dataset = `union${unique().replace(/\W/gu, '')}`;
    const created = await httpRequest(`${base()}/$/datasets`, { method: 'POST',
      headers: { authorization: FUSEKI_AUTH, 'content-type': FORM }, body: `dbName=${dataset}&dbType=tdb2` });
    expect(created.status).toBe(200);
    try {
      expect((await httpRequest(`${base()}/${dataset}/query?query=${encodeURIComponent('ASK {}')}`)).status).toBe(401);
      const update = await httpRequest(`${base()}/${dataset}/update`, { method: 'POST',
        headers: { authorization: FUSEKI_AUTH, 'content-type': FORM },
        body: `update=${encodeURIComponent('INSERT DATA { GRAPH <urn:g> { <urn:s> <urn:p> "named" } <urn:s> <urn:p> "stored default" }')}` });
      expect(update.status).toBeLessThan(300);
      expect(await select(`${base()}/${dataset}/query`, FUSEKI_AUTH, 'SELECT ?o WHERE { <urn:s> <urn:p> ?o }')).toEqual([ 'named' ]);
    } finally {
      await httpRequest(`${base()}/$/datasets/${dataset}`, { method: 'DELETE', headers: { authorization: FUSEKI_AUTH } });
    }
  });
});

describe('Fedpod on a Fuseki set up as docs/operations.md says', () => {
  const docs = readFusekiDocs();
  const dataset = 'localData'; // --dataset's default: the docs name none
  const auth = basicAuth(docs.fedpodArgs);
  const subject = `http://example.org/fuseki-test/${unique()}`;
  const marker = `written through Fedpod ${unique()}`;
  let fuseki: FusekiServer;
  let server: FedpodServer | undefined;

  const admin = (suffix: string): Promise<HttpResult> =>
    httpRequest(`${fuseki.baseUrl}/$/${suffix}`, { headers: { authorization: auth, accept: 'application/json' } });
  /** What Fuseki itself holds for the note's subject, in any graph. */
  const onFuseki = (): Promise<string[]> =>
    select(`${fuseki.baseUrl}/${dataset}/query`, auth, `SELECT ?g ?text WHERE { GRAPH ?g { <${subject}> <${TEXT}> ?text } }`);
  /** The note's text through Fedpod's public /sparql, which needs the union default graph. */
  const throughFedpod = async(): Promise<string[]> => {
    const query = `SELECT ?text WHERE { <${subject}> <${TEXT}> ?text }`;
    const answer = await httpRequest(`${server!.baseUrl}sparql?query=${encodeURIComponent(query)}`,
      { headers: { accept: 'application/sparql-results+json' } });
    expect(answer.status).toBe(200);
    return (JSON.parse(answer.body) as { results: { bindings: { text: { value: string } }[] } }).results.bindings.map((row) => row.text.value);
  };
  const startOnFuseki = (): Promise<FedpodServer> => startFedpod({ config: CONFIG,
    extraArgs: docs.fedpodArgs.map((arg) => (arg === docs.endpoint ? `${fuseki.baseUrl}/` : arg)) });

  // A JVM start on a busy machine: startFuseki waits up to 180 s for /$/ping.
  const FUSEKI_START_MS = 240_000;

  beforeAll(async () => {
    fuseki = await startFuseki({ shiroIni: docs.shiroIni, args: docs.fusekiArgs });
  }, FUSEKI_START_MS);

  afterAll(async () => {
    await server?.stop();
    await fuseki?.stop();
  });

  it('runs the Fuseki release the tests run', () => {
    expect(path.basename(fuseki.jar)).toBe(docs.jar);
  });

  it('creates its dataset at start-up, writes into it, and uses it again after a restart', async () => {
    expect((await admin(`datasets/${dataset}`)).status).toBe(404);
    server = await startOnFuseki();
    const described = await admin(`datasets/${dataset}`);
    expect(described.status).toBe(200);
    expect((JSON.parse(described.body) as { 'ds.name': string })['ds.name']).toBe(`/${dataset}`);
    // The initialiser's own log lines are written asynchronously: they may follow "ready".
    const logFile = server.logFile;
    await eventually(async() => tailFile(logFile, 1_000).includes(`Created dataset ${dataset}`));

    const created = await httpRequest(`${server.baseUrl}notes/`, { method: 'POST', headers: { 'content-type': 'text/turtle' },
      body: `<${subject}> <${TEXT}> ${JSON.stringify(marker)} .` });
    expect(created.status).toBe(201);
    const stored = await onFuseki();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatch(new RegExp(`^${server.baseUrl}notes/\\S+ ${marker}$`, 'u'));
    expect(await throughFedpod()).toEqual([ marker ]);

    await server.restart();
    // The initialiser's own log lines are written asynchronously: they may follow "ready".
    await eventually(async() => tailFile(logFile, 1_000).includes(`Dataset ${dataset} exists on the store`));
    const listed = JSON.parse((await admin('datasets')).body) as { datasets: { 'ds.name': string }[] };
    expect(listed.datasets.map((entry) => entry['ds.name'])).toEqual([ `/${dataset}` ]);
    expect(await throughFedpod()).toEqual([ marker ]);
  }, 240_000);

  it('keeps what Fedpod wrote, and the dataset, through a kill -9 of Fuseki', async () => {
    const before = await onFuseki();
    expect(before).toHaveLength(1);
    const oldPid = fuseki.pid;
    await fuseki.kill9();
    expect(isAlive(oldPid)).toBe(false);
    await fuseki.restart();
    expect(await onFuseki()).toEqual(before);
    expect(await throughFedpod()).toEqual([ marker ]);
  }, FUSEKI_START_MS);
});
