import type { IncomingMessage } from 'node:http';
import { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { HttpRequest } from '@solid/community-server';
import { guardStream } from '@solid/community-server';
import { DataFactory } from 'n3';
import type { Agent } from '../../../../src/handlers/http/Agent';
import { ANONYMOUS } from '../../../../src/handlers/http/Agent';
import { Operation } from '../../../../src/handlers/http/Operation';
import type { StoredResource } from '../../../../src/storage/ResourceGraphs';
import { unauthorized } from '../../../../src/util/HttpErrors';

const { literal, namedNode, quad } = DataFactory;
const ORIGIN = 'https://pod.example';
const ALICE: Agent = { webId: `${ORIGIN}/actors/alice`, username: 'alice' };

function request(url = '/x'): HttpRequest {
  return guardStream(Object.assign(new PassThrough(), { method: 'GET', url, headers: {}}) as unknown as IncomingMessage);
}

function operation(agent?: Agent, url = '/x'): Operation {
  const made = request(url);
  return new Operation({ request: made, response: new ServerResponse(made), target: Operation.parseTarget(ORIGIN, url)!, agent });
}

describe('Operation', (): void => {
  it('parses a target once: the IRI and path in their canonical spelling, the query, and the target as sent', (): void => {
    const target = Operation.parseTarget(ORIGIN, '/%6fbjects//abc?rel=a&rel=b&resource=acct%3Aa%40b#frag')!;
    expect(target).toMatchObject({ iri: `${ORIGIN}/objects/abc`, path: '/objects/abc', search: '?rel=a&rel=b&resource=acct%3Aa%40b',
      sent: '/%6fbjects//abc?rel=a&rel=b&resource=acct%3Aa%40b#frag' });
    expect(target.query.getAll('rel')).toEqual([ 'a', 'b' ]);
    expect(target.query.get('resource')).toBe('acct:a@b');
    expect([ ...Operation.parseTarget(ORIGIN, '/x')!.query.keys() ]).toEqual([]);
    expect(Operation.parseTarget(ORIGIN, '/x')!.search).toBe('');
  });

  it('refuses a target that is not a valid path', (): void => {
    for (const sent of [ 'https://pod.example/x', '/a/%zz', '/a/../b', '*' ]) {
      expect({ sent, target: Operation.parseTarget(ORIGIN, sent) }).toEqual({ sent, target: undefined });
    }
  });

  it('is anonymous until authenticated, on the default route without parameters unless given', (): void => {
    const made = operation();
    expect(made.agent).toBe(ANONYMOUS);
    expect(made.method).toBe('GET');
    expect(made.route).toEqual({ name: 'ldp' });
    expect(made.params).toEqual({});
    made.authenticated(ALICE);
    expect(made.agent).toBe(ALICE);
  });

  it('resolves to its agent when no check is deferred', async(): Promise<void> => {
    await expect(operation(ALICE).resolveAgent()).resolves.toBe(ALICE);
  });

  it('runs a deferred check once, on first need, and keeps its agent', async(): Promise<void> => {
    const made = operation();
    let checks = 0;
    const remote = { remoteActor: 'https://r.example/u/bob' };
    made.deferAgent(async(): Promise<Agent> => {
      checks += 1;
      return remote;
    });
    expect(checks).toBe(0);
    expect(made.agent).toBe(ANONYMOUS);
    const [ first, second ] = await Promise.all([ made.resolveAgent(), made.resolveAgent() ]);
    expect([ first, second ]).toEqual([ remote, remote ]);
    await made.resolveAgent();
    expect(checks).toBe(1);
    expect(made.agent).toBe(remote);
  });

  it('rejects with a failed deferred check\'s error', async(): Promise<void> => {
    const made = operation();
    made.deferAgent(async(): Promise<Agent> => {
      throw unauthorized('The HTTP signature is not valid.', 'invalid_signature');
    });
    await expect(made.resolveAgent()).rejects.toMatchObject({ statusCode: 401, errorCode: 'invalid_signature' });
  });

  it('keeps the access decision: its headers, and a prefetched resource for its IRI only', (): void => {
    const made = operation();
    expect(made.access).toEqual({});
    const stored: StoredResource = { data: [ quad(namedNode(`${ORIGIN}/x`), namedNode('urn:p'), literal('o')) ], metadata: []};
    made.decide({ headers: { 'wac-allow': 'user="read",public="read"' }});
    made.decide({ prefetched: { iri: `${ORIGIN}/x`, stored }});
    expect(made.access.headers).toEqual({ 'wac-allow': 'user="read",public="read"' });
    expect(made.prefetched(`${ORIGIN}/x`)).toBe(stored);
    expect(made.prefetched(`${ORIGIN}/y`)).toBeUndefined();
  });

  it('is found from its request, and from a request it is bound to, only once bound', (): void => {
    const made = operation();
    const replay = request();
    expect(Operation.of(made.request)).toBeUndefined();
    made.bind(made.request).bind(replay);
    expect(Operation.of(made.request)).toBe(made);
    expect(Operation.of(replay)).toBe(made);
    expect(Operation.of(request())).toBeUndefined();
  });
});
