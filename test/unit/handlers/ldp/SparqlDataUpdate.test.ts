import { Readable } from 'node:stream';
import type { Quad, Term } from '@rdfjs/types';
import type { HttpRequest, SparqlUpdatePatch } from '@solid/community-server';
import { RepresentationMetadata, SparqlUpdateBodyParser } from '@solid/community-server';
import { parseDataUpdate } from '../../../../src/handlers/ldp/SparqlDataUpdate';

const DOC = 'https://pod.example/docs/a';

interface Operation { type: string; updates?: Operation[]; delete?: Quad[]; insert?: Quad[] }

/** Each operation's deleted and inserted triples, as text, by what CSS's own parser (sparqljs, sparqlalgebrajs) reads. */
async function byFullParser(body: string): Promise<{ delete: string[]; insert: string[] }[]> {
  const patch = await new SparqlUpdateBodyParser().handle({ request: Readable.from([ body ]) as unknown as HttpRequest,
    metadata: new RepresentationMetadata({ path: DOC }, 'application/sparql-update') }) as SparqlUpdatePatch;
  const algebra = patch.algebra as unknown as Operation;
  const operations = algebra.type === 'compositeupdate' ? algebra.updates! : [ algebra ];
  return operations.map(textOf);
}

function termText(term: Term): string {
  return term.termType === 'Literal' ? `${JSON.stringify(term.value)}@${term.language}^^${term.datatype.value}` : `${term.termType}:${term.value}`;
}

function textOf(operation: { delete?: Quad[]; insert?: Quad[] }): { delete: string[]; insert: string[] } {
  const lines = (quads: Quad[] = []): string[] => quads.map((entry): string =>
    [ entry.subject, entry.predicate, entry.object ].map((term): string => termText(term)).join(' ')).sort();
  return { delete: lines(operation.delete), insert: lines(operation.insert) };
}

describe('parseDataUpdate', (): void => {
  const same = [
    `INSERT DATA { <#a> <http://ex.org/p> "x" . }`,
    `insert data { <> <http://ex.org/p> <other> }`,
    `PREFIX ex: <http://ex.org/>
PREFIX : <http://ex.org/default#>
INSERT DATA { <#a> ex:p "x"@en , "y"^^ex:t , 'z' ; a ex:C , :D . }`,
    `DELETE DATA { <#a> <http://ex.org/p> "old" . } ;
INSERT DATA { <#a> <http://ex.org/p> "new" . } ;`,
    `INSERT DATA { <#a> <http://ex.org/p> "braces } and { and # are text" , """long } "quoted"
over lines { """ , 'it\\'s \\u00e9 \\n' . }`,
    `INSERT DATA {
  # a comment with } and {
  <#a> <http://ex.org/p> 5 , 1.5 , -2.0e3 , true ; <http://ex.org/q> false # the last, with no dot
}`,
    `BASE <http://other.example/x/>
INSERT DATA { <y> <p> <z> , <#f> . }`,
    `DELETE DATA { <#a> <http://ex.org/p> "a" } ; DELETE DATA { <#b> <http://ex.org/p> "b" } ; INSERT DATA { }`,
    `  # leading comment
INSERT DATA { <http://ex.org/s%20t> <http://ex.org/p> "x"^^<http://www.w3.org/2001/XMLSchema#string> . }`,
  ];

  it.each(same)('reads %s as the full SPARQL parser does', async(body): Promise<void> => {
    const operations = parseDataUpdate(body, DOC);
    expect(operations).toBeDefined();
    expect(operations!.map(textOf)).toEqual(await byFullParser(body));
  });

  it('reads blank nodes to insert, each a fresh one', (): void => {
    const [ operation ] = parseDataUpdate(`INSERT DATA { <#a> <http://ex.org/p> [ <http://ex.org/q> 1 ] , _:b . _:b <http://ex.org/q> 2 }`, DOC)!;
    expect(operation.insert).toHaveLength(4);
    const objects = operation.insert!.filter((entry): boolean => entry.subject.value === `${DOC}#a`).map((entry): string => entry.object.termType);
    expect(objects).toEqual([ 'BlankNode', 'BlankNode' ]);
  });

  it.each([
    [ 'a WHERE', `DELETE { <#a> ?p ?o } WHERE { <#a> ?p ?o }` ],
    [ 'a plain INSERT', `INSERT { <#a> <http://ex.org/p> "x" } WHERE {}` ],
    [ 'a GRAPH block', `INSERT DATA { GRAPH <http://ex.org/g> { <#a> <http://ex.org/p> "x" } }` ],
    [ 'a variable', `INSERT DATA { <#a> <http://ex.org/p> ?x }` ],
    [ 'a blank node to delete', `DELETE DATA { _:b <http://ex.org/p> "x" }` ],
    [ 'a quoted triple', `INSERT DATA { << <#a> <http://ex.org/p> "x" >> <http://ex.org/q> "y" }` ],
    [ 'two operations without a separator', `INSERT DATA { <#a> <http://ex.org/p> "x" } INSERT DATA { <#b> <http://ex.org/p> "y" }` ],
    [ 'a prologue between operations', `INSERT DATA { <#a> <http://ex.org/p> "x" } ; PREFIX ex: <http://ex.org/> INSERT DATA { <#b> ex:p "y" }` ],
    [ 'broken triples', `INSERT DATA { <#a> <http://ex.org/p> }` ],
    [ 'an unclosed block', `INSERT DATA { <#a> <http://ex.org/p> "x"` ],
    [ 'an unclosed string', `INSERT DATA { <#a> <http://ex.org/p> "x }` ],
    [ 'text after the last block', `INSERT DATA { <#a> <http://ex.org/p> "x" } LOAD <http://ex.org/>` ],
    [ 'an undeclared prefix', `INSERT DATA { <#a> ex:p "x" }` ],
    [ 'nothing', `  # only a comment` ],
    // sparqljs keeps the dots of `<../z>` (CSS stores `x/../z`) where N3 resolves them: left to it, so
    // an IRI reads the same whichever parser reads it.
    [ 'a dot segment', `BASE <http://other.example/x/> INSERT DATA { <y> <p> <../z> }` ],
    [ 'a dot segment in a prefix', `PREFIX up: <../> INSERT DATA { <#a> up:p "x" }` ],
  ])('leaves %s to the full parser', (label, body): void => {
    expect(parseDataUpdate(body, DOC)).toBeUndefined();
  });
});
