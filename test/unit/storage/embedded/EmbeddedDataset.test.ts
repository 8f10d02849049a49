import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedDataset } from '../../../../src/storage/embedded/EmbeddedDataset';
import { EmbeddedDatasetFactory } from '../../../../src/storage/embedded/EmbeddedDatasetFactory';
import { InvalidOperationError } from '../../../../src/storage/embedded/InvalidOperationError';

const EX = 'http://example.org/';
const COUNTER = `<${EX}counter>`;
/** Not idempotent: replaying a record twice (or skipping one) changes the result. */
const INCREMENT = `DELETE { ${COUNTER} <${EX}value> ?old } INSERT { ${COUNTER} <${EX}value> ?new } ` +
  `WHERE { ${COUNTER} <${EX}value> ?old BIND(?old + 1 AS ?new) }`;

function counterOf(dataset: EmbeddedDataset): number {
  const json = JSON.parse(dataset.query(`SELECT ?v WHERE { ${COUNTER} <${EX}value> ?v }`, 'application/sparql-results+json')) as
    { results: { bindings: { v: { value: string } }[] } };
  expect(json.results.bindings).toHaveLength(1);
  return Number(json.results.bindings[0].v.value);
}

function countQuads(dataset: EmbeddedDataset): number {
  const json = JSON.parse(dataset.query('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }', 'application/sparql-results+json')) as
    { results: { bindings: { n: { value: string } }[] } };
  return Number(json.results.bindings[0].n.value);
}

describe('EmbeddedDataset durability', (): void => {
  let directory: string;
  let warnings: string[];
  let factory: EmbeddedDatasetFactory;
  const open = async(threshold = 64 * 1024 * 1024): Promise<EmbeddedDataset> => {
    factory = new EmbeddedDatasetFactory({ compactThresholdBytes: threshold, warn: (message): void => {
      warnings.push(message);
    } });
    return factory.openDurable(directory);
  };
  const files = (): string[] => readdirSync(directory).sort();

  beforeEach((): void => {
    directory = mkdtempSync(join(tmpdir(), 'fedpod-embedded-ds-'));
    warnings = [];
  });

  afterEach((): void => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('replays acknowledged updates, in order, after a reopen', async(): Promise<void> => {
    const dataset = await open();
    await dataset.update(`INSERT DATA { ${COUNTER} <${EX}value> 0 }`);
    await Promise.all(Array.from({ length: 50 }, async(): Promise<void> => dataset.update(INCREMENT)));
    await dataset.update(`INSERT DATA { GRAPH <${EX}g> { <${EX}s> <${EX}p> "named" } }`);
    await dataset.close();
    const reopened = await open();
    expect(counterOf(reopened)).toBe(50);
    expect(reopened.query(`ASK { <${EX}s> <${EX}p> "named" }`, 'application/sparql-results+json')).toContain('true');
    await reopened.close();
  });

  it('folds its log into a snapshot at a clean close when asked to, so a reopen replays nothing', async(): Promise<void> => {
    factory = new EmbeddedDatasetFactory({ compactThresholdBytes: 64 * 1024 * 1024, compactAtCloseBytes: 0, warn: (message): void => {
      warnings.push(message);
    } });
    const dataset = await factory.openDurable(directory);
    await dataset.update(`INSERT DATA { ${COUNTER} <${EX}value> 0 }`);
    await Promise.all(Array.from({ length: 5 }, async(): Promise<void> => dataset.update(INCREMENT)));
    await dataset.close();
    expect(files()).toEqual([ 'log-000000000002.wal', 'snapshot-000000000001.nq' ]);
    const reopened = await factory.openDurable(directory);
    expect(counterOf(reopened)).toBe(5);
    await reopened.close();
    // Nothing was written since: the close leaves the files as they were.
    expect(files()).toEqual([ 'log-000000000002.wal', 'snapshot-000000000001.nq' ]);
    expect(warnings).toEqual([]);
  });

  it('leaves its log as it is when closed without compaction (a dataset about to be deleted)', async(): Promise<void> => {
    factory = new EmbeddedDatasetFactory({ compactThresholdBytes: 64 * 1024 * 1024, compactAtCloseBytes: 0, warn: (message): void => {
      warnings.push(message);
    } });
    const dataset = await factory.openDurable(directory);
    await dataset.update(`INSERT DATA { ${COUNTER} <${EX}value> 0 }`);
    await dataset.close(false);
    expect(files()).toEqual([ 'log-000000000001.wal' ]);
  });

  it('compacts once the log holds the record threshold, however small the records', async(): Promise<void> => {
    factory = new EmbeddedDatasetFactory({ compactThresholdBytes: 64 * 1024 * 1024, compactThresholdRecords: 3, warn: (message): void => {
      warnings.push(message);
    } });
    const dataset = await factory.openDurable(directory);
    await dataset.update(`INSERT DATA { ${COUNTER} <${EX}value> 0 }`);
    await dataset.update(INCREMENT);
    expect(files().filter((name): boolean => name.startsWith('snapshot-'))).toEqual([]);
    // The third record starts a background compaction, which close() waits for.
    await dataset.update(INCREMENT);
    await dataset.close();
    const reopened = await factory.openDurable(directory);
    expect(counterOf(reopened)).toBe(2);
    await reopened.close();
    expect(files().filter((name): boolean => name.startsWith('snapshot-')).length).toBe(1);
  });

  it('rejects a bad update with a clear error and never logs it', async(): Promise<void> => {
    const dataset = await open();
    await dataset.update(`INSERT DATA { <${EX}s> <${EX}p> 1 }`);
    const logSize = statSync(join(directory, 'log-000000000001.wal')).size;
    await expect(dataset.update(`INSERT DATA { <${EX}s> <${EX}p> `)).rejects.toThrow(InvalidOperationError);
    await expect(dataset.update('DROP GRAPH <http://example.org/missing>')).rejects.toThrow(/missing|not exist/u);
    expect(statSync(join(directory, 'log-000000000001.wal')).size).toBe(logSize);
    await dataset.close();
  });

  it('truncates a torn last record and keeps everything before it', async(): Promise<void> => {
    const dataset = await open();
    for (let index = 0; index < 10; index++) {
      await dataset.update(`INSERT DATA { <${EX}s${index}> <${EX}p> ${index} }`);
    }
    await dataset.close();
    const log = join(directory, 'log-000000000001.wal');
    const goodSize = statSync(log).size;
    // A record header promising 500 bytes, followed by only a few: an interrupted append.
    const torn = Buffer.alloc(20);
    torn.writeUInt32LE(500, 0);
    torn.write('INSERT DATA', 8);
    appendFileSync(log, torn);

    const reopened = await open();
    expect(countQuads(reopened)).toBe(10);
    expect(statSync(log).size).toBe(goodSize);
    expect(warnings.join('\n')).toMatch(/torn tail/u);
    // The log stays appendable after the truncation.
    await reopened.update(`INSERT DATA { <${EX}after> <${EX}p> 1 }`);
    await reopened.close();
    const again = await open();
    expect(countQuads(again)).toBe(11);
    await again.close();
  });

  it('replays an update log written before the store shared its log code with the queue', async(): Promise<void> => {
    // Two INSERT DATA, a Graph Store POST of Turtle to <g2> and a DELETE DATA of the first insert.
    copyFileSync(join(__dirname, '..', '..', '..', 'fixtures', 'wal', 'log-000000000001.wal'), join(directory, 'log-000000000001.wal'));
    const dataset = await open();
    expect(countQuads(dataset)).toBe(2);
    expect(dataset.query(`ASK { GRAPH <${EX}g2> { <${EX}s3> <${EX}p> 3 } }`, 'application/sparql-results+json')).toContain('true');
    expect(dataset.query(`ASK { <${EX}s1> ?p ?o }`, 'application/sparql-results+json')).toContain('false');
    await dataset.update(`INSERT DATA { <${EX}s4> <${EX}p> 4 }`);
    await dataset.close();
    const reopened = await open();
    expect(countQuads(reopened)).toBe(3);
    expect(warnings).toEqual([]);
    await reopened.close();
  });

  it('truncates a zero-filled tail (what a crash can leave after a size update)', async(): Promise<void> => {
    const dataset = await open();
    await dataset.update(`INSERT DATA { <${EX}s> <${EX}p> 1 }`);
    await dataset.close();
    appendFileSync(join(directory, 'log-000000000001.wal'), Buffer.alloc(4096));
    const reopened = await open();
    expect(countQuads(reopened)).toBe(1);
    // Zeros are the writer's own preallocation, not damage worth a warning.
    expect(warnings).toEqual([]);
    await reopened.close();
  });

  it('refuses to start when an older log (not the newest) is corrupt', async(): Promise<void> => {
    const dataset = await open();
    await dataset.update(`INSERT DATA { <${EX}s> <${EX}p> 1 }`);
    await dataset.close();
    appendFileSync(join(directory, 'log-000000000001.wal'), Buffer.from('garbage!garbage!'));
    writeFileSync(join(directory, 'log-000000000002.wal'), Buffer.alloc(0));
    await expect(open()).rejects.toThrow(/corrupt/u);
  });

  it('compacts in the background past the threshold, and a restart keeps everything', async(): Promise<void> => {
    const dataset = await open(2048);
    await dataset.update(`INSERT DATA { ${COUNTER} <${EX}value> 0 }`);
    for (let index = 0; index < 200; index++) {
      await dataset.update(INCREMENT);
      if (index % 10 === 0) {
        await dataset.update(`INSERT DATA { GRAPH <${EX}g${index}> { <${EX}s${index}> <${EX}p> _:b${index} . _:b${index} <${EX}q> "x" } }`);
      }
    }
    await dataset.flush();
    // Nobody asked for a compaction: the threshold alone must have triggered one.
    for (let waited = 0; waited < 5000 && !files().some((name): boolean => /^snapshot-\d+\.nq$/u.test(name)); waited += 20) {
      await new Promise((resolve): void => {
        setTimeout(resolve, 20);
      });
    }
    expect(files().some((name): boolean => /^snapshot-\d+\.nq$/u.test(name))).toBe(true);
    const quadsBefore = countQuads(dataset);
    await dataset.update(INCREMENT);
    await dataset.close();
    const names = files();
    expect(names.filter((name): boolean => /^snapshot-\d+\.nq$/u.test(name))).toHaveLength(1);
    expect(names.filter((name): boolean => name.endsWith('.wal'))).toHaveLength(1);
    expect(names.filter((name): boolean => name.endsWith('.tmp'))).toHaveLength(0);

    const reopened = await open(2048);
    expect(counterOf(reopened)).toBe(201);
    expect(countQuads(reopened)).toBe(quadsBefore);
    // Blank nodes keep their links across the snapshot.
    expect(reopened.query(`ASK { GRAPH <${EX}g10> { <${EX}s10> <${EX}p> ?b . ?b <${EX}q> "x" } }`, 'application/sparql-results+json'))
      .toContain('true');
    await reopened.close();
  });

  it('recovers correctly if a crash hits after the snapshot is published but before old logs are deleted', async(): Promise<void> => {
    const dataset = await open();
    await dataset.update(`INSERT DATA { ${COUNTER} <${EX}value> 0 }`);
    for (let index = 0; index < 5; index++) {
      await dataset.update(INCREMENT);
    }
    await dataset.close();
    // Simulate: snapshot covering log 1 written and renamed, log 1 not yet deleted,
    // new log 2 created with later records.
    const snapshotSource = await open();
    const snapshot = snapshotSource.serialize({ kind: 'dataset' }, 'application/n-quads');
    await snapshotSource.close();
    writeFileSync(join(directory, 'snapshot-000000000001.nq'), snapshot);
    // A stray temp file of a later, interrupted snapshot must be ignored.
    writeFileSync(join(directory, 'snapshot-000000000002.nq.tmp'), 'garbage that is not N-Quads');

    const reopened = await open();
    // Log 1 must not be replayed on top of the snapshot that already covers it.
    expect(counterOf(reopened)).toBe(5);
    await reopened.update(INCREMENT);
    await reopened.close();
    expect(files()).toEqual([ 'log-000000000002.wal', 'snapshot-000000000001.nq' ]);
    const again = await open();
    expect(counterOf(again)).toBe(6);
    await again.close();
  });

  it('recovers correctly if a crash hits before the new snapshot is renamed into place', async(): Promise<void> => {
    const dataset = await open(1);
    await dataset.update(`INSERT DATA { ${COUNTER} <${EX}value> 0 }`);
    await dataset.compact();
    for (let index = 0; index < 3; index++) {
      await dataset.update(INCREMENT);
    }
    await dataset.flush();
    await dataset.close();
    // A half-written temp snapshot next to the real files.
    const listing = files();
    const lastLog = listing.filter((name): boolean => name.endsWith('.wal')).at(-1) as string;
    const next = Number(/\d+/u.exec(lastLog)?.[0]);
    writeFileSync(join(directory, `snapshot-${String(next).padStart(12, '0')}.nq.tmp`), '<http://half');
    const reopened = await open(64 * 1024 * 1024);
    expect(counterOf(reopened)).toBe(3);
    expect(files().some((name): boolean => name.endsWith('.tmp'))).toBe(false);
    await reopened.close();
  });

  it('replays Graph Store operations (add, replace, drop)', async(): Promise<void> => {
    const dataset = await open();
    const graph = { kind: 'named', iri: `${EX}g` } as const;
    await dataset.apply({ kind: 'graphAdd', target: graph, format: 'text/turtle', body: Buffer.from(`<s> <${EX}p> "one" .`), baseIri: `${EX}g` });
    await dataset.apply({ kind: 'graphAdd', target: { kind: 'named', iri: `${EX}h` }, format: 'application/n-triples', body: Buffer.from(`<${EX}s> <${EX}p> "h" .\n`) });
    await dataset.apply({ kind: 'graphReplace', target: graph, format: 'application/n-triples', body: Buffer.from(`<${EX}g> <${EX}p> "two" .\n`) });
    await dataset.apply({ kind: 'graphDrop', target: { kind: 'named', iri: `${EX}h` }});
    await expect(dataset.apply({ kind: 'graphReplace', target: graph, format: 'text/turtle', body: Buffer.from('nonsense') }))
      .rejects.toThrow(InvalidOperationError);
    const before = dataset.serialize({ kind: 'dataset' }, 'application/n-quads');
    await dataset.close();
    const reopened = await open();
    expect(reopened.serialize({ kind: 'dataset' }, 'application/n-quads')).toBe(before);
    expect(before).toBe(`<${EX}g> <${EX}p> "two" <${EX}g> .\n`);
    await reopened.close();
  });

  it('keeps an in-memory dataset off the disk', async(): Promise<void> => {
    factory = new EmbeddedDatasetFactory({ compactThresholdBytes: 1, warn: (): void => undefined });
    const dataset = factory.createInMemory();
    await dataset.update(`INSERT DATA { <${EX}s> <${EX}p> 1 }`);
    expect(dataset.durable).toBe(false);
    expect(countQuads(dataset)).toBe(1);
    expect(existsSync(join(directory, 'log-000000000001.wal'))).toBe(false);
    await dataset.close();
  });
});

describe('EmbeddedDataset store rebuilds', (): void => {
  let directory: string;
  let warnings: string[];
  let informed: string[];
  const open = async(rebuildAfterRemovals: number): Promise<EmbeddedDataset> => new EmbeddedDatasetFactory({
    compactThresholdBytes: 64 * 1024 * 1024,
    rebuildAfterRemovals,
    warn: (message): void => {
      warnings.push(message);
    },
    inform: (message): void => {
      informed.push(message);
    },
  }).openDurable(directory);
  /** Replaces graph `doc<n>` by one holding `value`: what a PUT of a pod document does. */
  const overwrite = (n: number, value: string): string => `DELETE WHERE { GRAPH <${EX}doc${n}> { ?s ?p ?o } }; ` +
    `INSERT DATA { GRAPH <${EX}doc${n}> { <${EX}doc${n}#it> <${EX}value> "${value}" ; <${EX}other> "x" } }`;
  const valueOf = (dataset: EmbeddedDataset, n: number): string[] => {
    const json = JSON.parse(dataset.query(`SELECT ?v WHERE { GRAPH <${EX}doc${n}> { ?s <${EX}value> ?v } }`,
      'application/sparql-results+json')) as { results: { bindings: { v: { value: string } }[] } };
    return json.results.bindings.map((binding): string => binding.v.value);
  };
  const rebuilds = (): string[] => informed.filter((message): boolean => message.includes('store rebuilt'));

  beforeEach((): void => {
    directory = mkdtempSync(join(tmpdir(), 'fedpod-embedded-rebuild-'));
    warnings = [];
    informed = [];
  });

  afterEach((): void => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('rebuilds its store after many overwrites, with the data unchanged', async(): Promise<void> => {
    const dataset = await open(30);
    await dataset.update(`INSERT DATA { ${COUNTER} <${EX}value> 0 }`);
    for (let index = 0; index < 100; index++) {
      await dataset.update(overwrite(index % 5, `v${index}`));
      await dataset.update(INCREMENT);
    }
    // Waits for the compaction (and rebuild) under way, if any.
    await dataset.compact();
    expect(rebuilds()).toEqual([ expect.stringMatching(/store rebuilt after \d+ removing writes, 11 quads/u) ]);
    expect(counterOf(dataset)).toBe(100);
    expect([ 0, 1, 2, 3, 4 ].map((n): string[] => valueOf(dataset, n))).toEqual([[ 'v95' ], [ 'v96' ], [ 'v97' ], [ 'v98' ], [ 'v99' ]]);
    expect(countQuads(dataset)).toBe(11);
    await dataset.close();
    const reopened = await open(30);
    expect(counterOf(reopened)).toBe(100);
    expect(countQuads(reopened)).toBe(11);
    await reopened.close();
    expect(warnings).toEqual([]);
  });

  it('keeps every write issued while rebuilds run, from many concurrent writers', async(): Promise<void> => {
    const dataset = await open(10);
    const lanes = 10;
    const perLane = 40;
    const filler = Array.from({ length: 2000 }, (_, index): string => `<${EX}f${index}> <${EX}filler> "${index}" .`);
    await dataset.update(`INSERT DATA { ${filler.join(' ')} }`);
    await Promise.all(Array.from({ length: lanes }, async(_, lane): Promise<void> => {
      for (let index = 0; index < perLane; index++) {
        await dataset.update(`${overwrite(lane, `${lane}-${index}`)}; INSERT DATA { <${EX}item-${lane}-${index}> <${EX}lane> ${lane} }`);
      }
    }));
    await dataset.compact();
    // 2000 quads: one removing write per 50 quads, so every 40 of them.
    expect(rebuilds()).not.toHaveLength(0);
    expect(Array.from({ length: lanes }, (_, lane): string[] => valueOf(dataset, lane)))
      .toEqual(Array.from({ length: lanes }, (_, lane): string[] => [ `${lane}-${perLane - 1}` ]));
    expect(countQuads(dataset)).toBe(2000 + (lanes * 2) + (lanes * perLane));
    const before = dataset.serialize({ kind: 'dataset' }, 'application/n-quads').split('\n').sort();
    await dataset.close();
    const reopened = await open(10);
    expect(reopened.serialize({ kind: 'dataset' }, 'application/n-quads').split('\n').sort()).toEqual(before);
    await reopened.close();
    expect(warnings).toEqual([]);
  });
});
