import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { DataFactory } from 'n3';
import { PrefetchedResources } from '../../../../src/handlers/access/PrefetchedResources';
import type { StoredResource } from '../../../../src/storage/ResourceGraphs';

const { literal, namedNode, quad } = DataFactory;

function request(): IncomingMessage {
  return Object.assign(new PassThrough(), { method: 'GET', headers: {}}) as unknown as IncomingMessage;
}

function resource(iri: string, content: string): StoredResource {
  return { data: [ quad(namedNode(iri), namedNode('https://www.w3.org/ns/activitystreams#content'), literal(content)) ], metadata: []};
}

describe('PrefetchedResources', (): void => {
  const IRI = 'https://remote.example/notes/1';

  it('gives the handler the resource read for the same IRI in the same request', (): void => {
    const asked = request();
    const stored = resource(IRI, 'hello');
    PrefetchedResources.set(asked, IRI, stored);
    expect(PrefetchedResources.take(asked, IRI)).toBe(stored);
  });

  it('gives nothing for another IRI or another request', (): void => {
    const asked = request();
    PrefetchedResources.set(asked, IRI, resource(IRI, 'hello'));
    expect(PrefetchedResources.take(asked, 'https://remote.example/notes/2')).toBeUndefined();
    expect(PrefetchedResources.take(request(), IRI)).toBeUndefined();
  });

  it('keeps only the last resource set for a request', (): void => {
    const asked = request();
    const other = 'https://remote.example/notes/2';
    const second = resource(other, 'second');
    PrefetchedResources.set(asked, IRI, resource(IRI, 'first'));
    PrefetchedResources.set(asked, other, second);
    expect(PrefetchedResources.take(asked, IRI)).toBeUndefined();
    expect(PrefetchedResources.take(asked, other)).toBe(second);
  });
});
