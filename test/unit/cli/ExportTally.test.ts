import { DataFactory } from 'n3';
import { ExportTally } from '../../../src/cli/ExportTally';
import { FEDPOD_FILE } from '../../../src/storage/StoreVocabulary';

const { blankNode, defaultGraph, literal, namedNode, quad } = DataFactory;
const p = namedNode('http://example.org/p');

describe('ExportTally', (): void => {
  it('counts quads, graphs, the default graph and the files named by resource metadata', (): void => {
    const tally = new ExportTally();
    tally.add(quad(namedNode('http://a/1'), p, literal('x'), namedNode('http://a/1')));
    tally.add(quad(namedNode('http://a/1'), p, literal('y'), namedNode('http://a/1')));
    tally.add(quad(namedNode('http://a/2'), namedNode(FEDPOD_FILE), literal('0123456789abcdef0123456789abcdef'), namedNode('meta:http://a/2')));
    tally.add(quad(namedNode('http://a/3'), namedNode(FEDPOD_FILE), literal('../../etc/passwd'), namedNode('meta:http://a/3')));
    tally.add(quad(namedNode('http://a/4'), p, literal('z'), defaultGraph()));
    expect(tally.quads).toBe(5);
    expect([ ...tally.graphs ]).toEqual([ 'http://a/1', 'meta:http://a/2', 'meta:http://a/3' ]);
    expect(tally.defaultGraphQuads).toBe(1);
    expect([ ...tally.files ]).toEqual([ '0123456789abcdef0123456789abcdef' ]);
    expect([ ...tally.badFileNames ]).toEqual([ '../../etc/passwd' ]);
    expect(tally.blankNodeQuads).toBe(0);
  });

  it('notes the graphs with blank nodes, and labels shared between graphs', (): void => {
    const tally = new ExportTally();
    tally.add(quad(blankNode('b1'), p, blankNode('b2'), namedNode('http://g/1')));
    tally.add(quad(namedNode('http://a'), p, blankNode('b1'), namedNode('http://g/1')));
    expect(tally.sharedLabels.size).toBe(0);
    tally.add(quad(namedNode('http://a'), p, blankNode('b2'), namedNode('http://g/2')));
    expect(tally.blankNodeQuads).toBe(3);
    expect([ ...tally.blankNodeGraphs ]).toEqual([ 'http://g/1', 'http://g/2' ]);
    expect([ ...tally.sharedLabels ]).toEqual([ 'b2' ]);
  });
});
