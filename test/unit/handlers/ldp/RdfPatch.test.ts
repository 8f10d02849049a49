import { DataFactory, Store } from 'n3';
import { N3_PATCH, parseRdfPatch, SPARQL_UPDATE } from '../../../../src/handlers/ldp/RdfPatch';

const { literal, namedNode, quad } = DataFactory;
const DOC = 'https://pod.example/docs/a';
const P = 'urn:p';
const SOLID = '@prefix solid: <http://www.w3.org/ns/solid/terms#>.';

function dataset(...values: string[]): Store {
  return new Store(values.map((value) => quad(namedNode(DOC), namedNode(P), literal(value))));
}

function values(store: Store): string[] {
  return store.getQuads(null, null, null, null).map((entry): string => entry.object.value).sort();
}

describe('RdfPatch', (): void => {
  it('asks for the modes CSS\'s modes extractors ask (SPARQL Update)', async(): Promise<void> => {
    const modes = async(body: string): Promise<string[]> => [ ...(await parseRdfPatch(SPARQL_UPDATE, body, DOC)).modes ].sort();
    expect(await modes(`INSERT DATA { <> <${P}> "x" . }`)).toEqual([ 'append' ]);
    expect(await modes(`DELETE DATA { <> <${P}> "x" . }`)).toEqual([ 'read', 'write' ]);
    expect(await modes(`DELETE DATA { <> <${P}> "x" . }; INSERT DATA { <> <${P}> "y" . }`)).toEqual([ 'append', 'read', 'write' ]);
    expect(await modes(`INSERT { <> <${P}> ?o } WHERE { <> <urn:q> ?o }`)).toEqual([ 'append', 'read' ]);
  });

  it('asks for the modes CSS\'s modes extractors ask (N3 Patch)', async(): Promise<void> => {
    const modes = async(body: string): Promise<string[]> => [ ...(await parseRdfPatch(N3_PATCH, `${SOLID} ${body}`, DOC)).modes ].sort();
    expect(await modes(`_:p a solid:InsertDeletePatch; solid:inserts { <> <${P}> "x" }.`)).toEqual([ 'append' ]);
    expect(await modes(`_:p a solid:InsertDeletePatch; solid:where { <> <${P}> ?o }; solid:inserts { <> <urn:q> ?o }.`))
      .toEqual([ 'append', 'read' ]);
    expect(await modes(`_:p a solid:InsertDeletePatch; solid:deletes { <> <${P}> "x" }.`)).toEqual([ 'read', 'write' ]);
  });

  it('applies INSERT DATA and DELETE DATA in order, relative IRIs against the document', async(): Promise<void> => {
    const store = dataset('a', 'b');
    await (await parseRdfPatch(SPARQL_UPDATE, `DELETE DATA { <> <${P}> "a" . }; INSERT DATA { <> <${P}> "a2" . };
      DELETE DATA { <${DOC}> <${P}> "missing" . }`, DOC)).apply(store);
    expect(values(store)).toEqual([ 'a2', 'b' ]);
  });

  it('gives the blank nodes of each INSERT DATA new names, never those of the document', async(): Promise<void> => {
    // The label the SPARQL parser gives `_:b0`, as a document's own blank node may be named.
    const store = new Store([ quad(DataFactory.blankNode('e_b0'), namedNode(P), literal('old')) ]);
    await (await parseRdfPatch(SPARQL_UPDATE, `INSERT DATA { _:b0 <${P}> "new" . _:b0 <urn:q> "same" . }`, DOC)).apply(store);
    const subjects = new Set(store.getQuads(null, null, null, null).map((entry): string => entry.subject.value));
    expect(subjects.size).toBe(2);
    expect(store.getQuads(null, namedNode(P), literal('new'), null)[0].subject
      .equals(store.getQuads(null, namedNode('urn:q'), literal('same'), null)[0].subject)).toBe(true);
  });

  it('leaves updates with WHERE to CSS\'s patcher', async(): Promise<void> => {
    const store = dataset('a', 'b');
    await (await parseRdfPatch(SPARQL_UPDATE, `DELETE { <> <${P}> ?o } INSERT { <> <urn:q> ?o } WHERE { <> <${P}> ?o }`, DOC)).apply(store);
    expect(store.getQuads(null, namedNode(P), null, null)).toHaveLength(0);
    expect(store.getQuads(null, namedNode('urn:q'), null, null)).toHaveLength(2);
  });

  it('refuses what CSS refuses: bad syntax 400, N3 Patch rules 422, other operations and GRAPH 415', async(): Promise<void> => {
    await expect(parseRdfPatch(SPARQL_UPDATE, 'INSERT DATA {', DOC)).rejects.toMatchObject({ statusCode: 400 });
    await expect(parseRdfPatch(N3_PATCH, '<> <urn:p> "x" .', DOC)).rejects.toMatchObject({ statusCode: 422 });
    await expect(parseRdfPatch(SPARQL_UPDATE, 'CLEAR DEFAULT', DOC)).rejects.toMatchObject({ statusCode: 415 });
    const graph = await parseRdfPatch(SPARQL_UPDATE, `INSERT DATA { GRAPH <urn:g> { <> <${P}> "x" } }`, DOC);
    await expect(graph.apply(new Store())).rejects.toMatchObject({ statusCode: 415 });
  });
});
