import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Quad } from '@rdfjs/types';
import arrayifyStream from 'arrayify-stream';
import type { RepresentationMetadata } from '@solid/community-server';
import {
  BasicRepresentation,
  INTERNAL_QUADS,
  NotFoundHttpError,
  NotImplementedHttpError,
  parseContentType,
  RdfToQuadConverter,
  readableToString,
  SingleRootIdentifierStrategy,
  UnsupportedMediaTypeHttpError,
} from '@solid/community-server';
import { DataFactory } from 'n3';
import { DocumentLoader } from '../../../src/plugins/ldp/DocumentLoader';
import { JsonLdParser } from '../../../src/plugins/ldp/JsonLdParser';
import { RdfOrFileConverter } from '../../../src/plugins/ldp/RdfOrFileConverter';
import { fileNameOf, ResourceFiles } from '../../../src/storage/ResourceFiles';
import { defaultGraphOnly, SparqlStoreAccessor } from '../../../src/storage/SparqlStoreAccessor';
import { FEDPOD_FILE, LDP_NON_RDF_SOURCE, LDP_RESOURCE, PIM_STORAGE, RDF_TYPE } from '../../../src/storage/StoreVocabulary';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../support/embeddedGraphs';

const { literal, namedNode, quad } = DataFactory;

const BASE = 'https://pod.example/';
const TITLE = 'http://purl.org/dc/terms/title';

describe('defaultGraphOnly', (): void => {
  it('passes triples of the default graph and refuses quads in a named one with a 415', (): void => {
    const triple = quad(namedNode(`${BASE}a`), namedNode(TITLE), literal('t'));
    expect(defaultGraphOnly([ triple ])).toEqual([ triple ]);
    expect((): Quad[] => defaultGraphOnly([ triple, quad(namedNode(`${BASE}a`), namedNode(TITLE), literal('t'), namedNode(`${BASE}g`)) ]))
      .toThrow(UnsupportedMediaTypeHttpError);
  });
});

describe('SparqlStoreAccessor (on the embedded store)', (): void => {
  let graphs: EmbeddedGraphs;
  let dataDir: string;
  let files: ResourceFiles;
  let accessor: SparqlStoreAccessor;
  let counter = 0;
  let container: string;

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs(BASE);
  });

  afterAll(async(): Promise<void> => {
    await graphs.stop();
  });

  beforeEach(async(): Promise<void> => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-accessor-'));
    files = new ResourceFiles(dataDir);
    const converter = new RdfOrFileConverter(new RdfToQuadConverter(), new JsonLdParser(BASE, new DocumentLoader(BASE)));
    accessor = new SparqlStoreAccessor(graphs.resources, new SingleRootIdentifierStrategy(BASE), files, converter);
    counter += 1;
    container = `${BASE}c${counter}/`;
    await accessor.writeContainer({ path: container }, new BasicRepresentation([], { path: container }, INTERNAL_QUADS).metadata);
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function write(path: string, body: string, contentType: string): Promise<void> {
    const representation = new BasicRepresentation(body, { path });
    representation.metadata.contentTypeObject = parseContentType(contentType);
    // What CSS's store adds to the metadata of every document it writes.
    representation.metadata.add(namedNode(RDF_TYPE), namedNode(LDP_RESOURCE));
    await accessor.writeDocument({ path }, representation.data, representation.metadata);
  }

  async function children(path: string): Promise<string[]> {
    const found: string[] = [];
    for await (const child of accessor.getChildren({ path })) {
      found.push(child.identifier.value);
    }
    return found.sort();
  }

  it('stores an RDF document as triples in its container, read back as quads', async(): Promise<void> => {
    const doc = `${container}doc`;
    await write(doc, `<> <${TITLE}> "hello" .`, 'text/turtle');
    const quads = await arrayifyStream<Quad>(await accessor.getData({ path: doc }));
    expect(quads.map((entry): string => `${entry.subject.value} ${entry.predicate.value} ${entry.object.value}`))
      .toEqual([ `${doc} ${TITLE} hello` ]);
    expect((await accessor.getMetadata({ path: doc })).contentType).toBe(INTERNAL_QUADS);
    expect(await children(container)).toEqual([ doc ]);
  });

  it('stores any other body as a file, its media type and size in the metadata, where it is hidden', async(): Promise<void> => {
    const doc = `${container}page.html`;
    await write(doc, '<p>hi</p>', 'text/html; charset=utf-8');
    expect(await readableToString(await accessor.getData({ path: doc }))).toBe('<p>hi</p>');
    const metadata: RepresentationMetadata = await accessor.getMetadata({ path: doc });
    expect(metadata.contentType).toBe('text/html');
    expect(metadata.contentTypeObject?.parameters.charset).toBe('utf-8');
    expect(metadata.get(namedNode(FEDPOD_FILE))).toBeUndefined();
    expect(metadata.getAll(namedNode(RDF_TYPE)).map((term): string => term.value)).toContain(LDP_NON_RDF_SOURCE);
    expect(await children(container)).toEqual([ doc ]);
  });

  it('removes the old file once a new version is stored, and the file with the resource', async(): Promise<void> => {
    const doc = `${container}notes.txt`;
    await write(doc, 'first', 'text/plain');
    const first = fileNameOf(await graphs.resources.readMetadata(doc))!;
    await write(doc, 'second', 'text/plain');
    const second = fileNameOf(await graphs.resources.readMetadata(doc))!;
    expect(second).not.toBe(first);
    await expect(readableToString(files.open(first))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readableToString(await accessor.getData({ path: doc }))).toBe('second');
    await write(doc, `<> <${TITLE}> "now RDF" .`, 'text/turtle');
    await expect(readableToString(files.open(second))).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await accessor.getMetadata({ path: doc })).contentType).toBe(INTERNAL_QUADS);
    await write(doc, 'a file again', 'text/plain');
    const third = fileNameOf(await graphs.resources.readMetadata(doc))!;
    await accessor.deleteResource({ path: doc });
    await expect(readableToString(files.open(third))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(accessor.getMetadata({ path: doc })).rejects.toThrow(NotFoundHttpError);
    expect(await children(container)).toEqual([]);
  });

  it('keeps a file\'s description whatever a new description of the resource says', async(): Promise<void> => {
    const doc = `${container}photo.png`;
    await write(doc, 'PNG bytes', 'image/png');
    const description = new BasicRepresentation([], { path: doc }, 'text/plain').metadata;
    description.add(namedNode(TITLE), literal('Holiday'));
    description.removeAll(namedNode('http://www.w3.org/ns/ma-ont#format'));
    await accessor.writeMetadata({ path: doc }, description);
    const metadata = await accessor.getMetadata({ path: doc });
    expect(metadata.get(namedNode(TITLE))?.value).toBe('Holiday');
    expect(metadata.contentType).toBe('image/png');
    expect(await readableToString(await accessor.getData({ path: doc }))).toBe('PNG bytes');
  });

  it('refuses a resource name starting with meta:, where metadata graphs live', async(): Promise<void> => {
    await expect(write('meta:https://pod.example/x', 'x', 'text/plain')).rejects.toThrow(NotImplementedHttpError);
  });

  it('answers 404 for the metadata of what is not stored, and gives no data for it', async(): Promise<void> => {
    await expect(accessor.getMetadata({ path: `${container}absent` })).rejects.toThrow(NotFoundHttpError);
    expect(await arrayifyStream(await accessor.getData({ path: `${container}absent` }))).toEqual([]);
  });

  it('makes the root container a storage, however its metadata is written', async(): Promise<void> => {
    const root = new BasicRepresentation([], { path: BASE }, INTERNAL_QUADS).metadata;
    await accessor.writeContainer({ path: BASE }, root);
    const types = async(): Promise<string[]> => (await accessor.getMetadata({ path: BASE })).getAll(namedNode(RDF_TYPE))
      .map((term): string => term.value);
    expect(await types()).toContain(PIM_STORAGE);
    await accessor.writeMetadata({ path: BASE }, new BasicRepresentation([], { path: BASE }, INTERNAL_QUADS).metadata);
    expect(await types()).toContain(PIM_STORAGE);
    const other = (await accessor.getMetadata({ path: container })).getAll(namedNode(RDF_TYPE)).map((term): string => term.value);
    expect(other).not.toContain(PIM_STORAGE);
  });

  it('lists no ACL or description document among its container\'s members', async(): Promise<void> => {
    await write(`${container}.acl`, `<#a> <${TITLE}> "acl" .`, 'text/turtle');
    await write(`${container}doc.meta`, `<> <${TITLE}> "meta" .`, 'text/turtle');
    expect(await children(container)).toEqual([]);
    expect((await accessor.getMetadata({ path: `${container}.acl` })).contentType).toBe(INTERNAL_QUADS);
  });
});
