import type { Quad } from '@rdfjs/types';
import arrayifyStream from 'arrayify-stream';
import { BasicRepresentation, INTERNAL_QUADS } from '@solid/community-server';
import { Store } from 'n3';
import { BundledContextRdfToQuadConverter } from '../../../../src/plugins/ldp/BundledContextRdfToQuadConverter';
import { DocumentLoader } from '../../../../src/plugins/ldp/DocumentLoader';
import { IgnoredAgentGroupAccessChecker } from '../../../../src/plugins/ldp/IgnoredAgentGroupAccessChecker';
import { startCanary, type Canary } from '../../../support/canary';

const BASE = 'https://pod.example/';

describe('BundledContextRdfToQuadConverter', () => {
  let canary: Canary;
  const converter = new BundledContextRdfToQuadConverter(new DocumentLoader(BASE));

  beforeAll(async () => {
    canary = await startCanary();
  });

  afterAll(async () => {
    await canary.close();
  });

  async function convert(body: unknown): Promise<Quad[]> {
    const representation = await converter.handleSafe({
      representation: new BasicRepresentation(JSON.stringify(body), 'application/ld+json'),
      identifier: { path: `${BASE}doc` },
      preferences: { type: { [INTERNAL_QUADS]: 1 }},
    });
    return arrayifyStream<Quad>(representation.data);
  }

  it('reads CSS\'s local contexts (notifications) and Fedpod\'s bundled ones', async () => {
    const subscription = await convert({ '@context': [ 'https://www.w3.org/ns/solid/notification/v1' ], id: '#s', topic: `${BASE}x` });
    expect(subscription.map((quad) => quad.predicate.value)).toContain('http://www.w3.org/ns/solid/notifications#topic');
    const note = await convert({ '@context': [ 'https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1' ], id: '#n', type: 'Note' });
    expect(note.map((quad) => quad.object.value)).toContain('https://www.w3.org/ns/activitystreams#Note');
  });

  it('refuses any other context, fetching nothing, whatever its address', async () => {
    const before = canary.hits.length;
    await expect(convert({ '@context': `${canary.origin}/ctx`, '@id': '#it', name: 'x' })).rejects.toThrow(/Unknown JSON-LD context/u);
    await expect(convert({ '@context': { '@import': `${canary.origin}/imported` }, name: 'x' })).rejects.toThrow();
    expect(canary.since(before)).toEqual([]);
  });
});

describe('IgnoredAgentGroupAccessChecker', () => {
  it('grants nothing for acl:agentGroup, fetching nothing', async () => {
    await expect(new IgnoredAgentGroupAccessChecker().handle({
      acl: new Store(), rule: { termType: 'NamedNode', value: `${BASE}.acl#group` } as never, credentials: { agent: { webId: `${BASE}alice` } },
    })).resolves.toBe(false);
  });
});
