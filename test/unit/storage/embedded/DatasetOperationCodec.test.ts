import type { DatasetOperation } from '../../../../src/storage/embedded/DatasetOperation';
import { DatasetOperationCodec } from '../../../../src/storage/embedded/DatasetOperationCodec';

describe('DatasetOperationCodec', (): void => {
  const codec = new DatasetOperationCodec();

  it.each<[string, DatasetOperation]>([
    [ 'a SPARQL update', { kind: 'update', sparql: 'INSERT DATA { <urn:s> <urn:p> "é ☃" }' } ],
    [ 'an empty update', { kind: 'update', sparql: '' } ],
    [ 'a graph add to a named graph', { kind: 'graphAdd', target: { kind: 'named', iri: 'urn:g' }, format: 'text/turtle',
      baseIri: 'http://example.org/', body: Buffer.from('<a> <b> <c> .') } ],
    [ 'a graph replace of the default graph', { kind: 'graphReplace', target: { kind: 'default' }, format: 'application/n-triples',
      baseIri: undefined, body: Buffer.from([ 0, 255, 10 ]) } ],
    [ 'a drop of the dataset', { kind: 'graphDrop', target: { kind: 'dataset' }} ],
  ])('gives back %s as it was', (what, operation): void => {
    expect(codec.decode(codec.encode(operation))).toEqual(operation);
  });

  it('writes an update as one type byte and its UTF-8 text', (): void => {
    const payload = codec.encode({ kind: 'update', sparql: 'CLEAR ALL' });
    expect(payload[0]).toBe(1);
    expect(payload.subarray(1).toString('utf8')).toBe('CLEAR ALL');
  });

  it('reads a graph write without a format as N-Triples', (): void => {
    const header = Buffer.from(JSON.stringify({ target: { kind: 'default' }}));
    const payload = Buffer.concat([ Buffer.from([ 2 ]), Buffer.alloc(4), header, Buffer.from('<a> <b> <c> .') ]);
    payload.writeUInt32LE(header.length, 1);
    expect(codec.decode(payload)).toMatchObject({ kind: 'graphAdd', format: 'application/n-triples' });
  });

  it('refuses a record of an unknown type', (): void => {
    expect((): DatasetOperation => codec.decode(Buffer.from([ 9, 0, 0, 0, 0 ]))).toThrow('Unknown log record type 9');
  });
});
