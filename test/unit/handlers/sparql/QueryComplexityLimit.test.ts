import { Parser } from 'sparqljs';
import { checkQuery } from '../../../../src/handlers/sparql/SparqlQueryGuard';
import { refuseTooComplex } from '../../../../src/handlers/sparql/QueryComplexityLimit';
import { FedpodHttpError } from '../../../../src/util/HttpErrors';

const BASE = 'http://localhost:3000/';

function refusal(query: string): FedpodHttpError | undefined {
  try {
    checkQuery(query, BASE);
    return undefined;
  } catch (error: unknown) {
    return error as FedpodHttpError;
  }
}

describe('query complexity limits', (): void => {
  it.each([
    [ '1000 nested groups', `SELECT * WHERE ${'{ '.repeat(1000)}?s ?p ?o${' }'.repeat(1000)}` ],
    [ '200 nested EXISTS', `SELECT * WHERE { ?s ?p ?o FILTER(${'EXISTS { ?s ?p ?o FILTER('.repeat(200)}true${') }'.repeat(200)}) }` ],
    [ '100 nested OPTIONALs', `SELECT * WHERE { ?s ?p ?o ${'OPTIONAL { ?s ?p ?o '.repeat(100)}${'}'.repeat(100)} }` ],
    [ 'a 10,000-term disjunction', `SELECT * WHERE { ?s ?p ?o FILTER(false${' || false'.repeat(10_000)}) }` ],
    [ '1000 BINDs', `SELECT * WHERE { ?s ?p ?o ${Array.from({ length: 1000 }, (_, i): string => `BIND(1 AS ?v${i})`).join(' ')} }` ],
    [ '200 triple patterns', `SELECT * WHERE { ${Array.from({ length: 200 }, (_, i): string => `?s${i} ?p ?o .`).join(' ')} }` ],
    [ 'IN with 10,000 values', `SELECT * WHERE { ?s ?p ?o FILTER(?o IN (${Array(10_000).fill('1').join(',')})) }` ],
  ])('refuses %s with 400 query_too_complex', (_, query): void => {
    const error = refusal(query);
    expect(error).toBeInstanceOf(FedpodHttpError);
    expect(error).toMatchObject({ statusCode: 400, errorCode: 'query_too_complex' });
  });

  it('lets ordinary queries through', (): void => {
    expect(refusal(`PREFIX as: <https://www.w3.org/ns/activitystreams#>
      SELECT ?note ?content WHERE { GRAPH ?g { ?note a as:Note ; as:content ?content .
        OPTIONAL { ?note as:published ?date } FILTER(?date > "2020-01-01"^^<http://www.w3.org/2001/XMLSchema#date> || !BOUND(?date)) } }
      ORDER BY DESC(?date) LIMIT 20`)).toBeUndefined();
    expect(refusal(`SELECT * WHERE ${'{ '.repeat(20)}?s ?p ?o${' }'.repeat(20)}`)).toBeUndefined();
  });

  it('takes its limits as a parameter', (): void => {
    const parsed = new Parser().parse('SELECT * WHERE { ?s ?p ?o . ?o ?p ?x }');
    expect((): void => refuseTooComplex(parsed, { maxDepth: 64, maxTriplePatterns: 1, maxNodes: 2000 })).toThrow(/triple patterns/u);
    expect((): void => refuseTooComplex(parsed, { maxDepth: 64, maxTriplePatterns: 64, maxNodes: 3 })).toThrow(/too large/u);
    expect((): void => refuseTooComplex(parsed)).not.toThrow();
  });
});
