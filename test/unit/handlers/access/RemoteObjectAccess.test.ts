import { DataFactory } from 'n3';
import { RemoteObjectAccess } from '../../../../src/handlers/access/RemoteObjectAccess';
import type { Agent } from '../../../../src/handlers/http/Agent';
import type { Addressing, AudienceRules } from '../../../../src/plugins/activitypub/AudienceRules';
import type { StoredResource } from '../../../../src/storage/ResourceGraphs';
import { rejection } from '../../../support/rejection';
import { accessRequest, statusOf } from './support';

const { literal, namedNode, quad } = DataFactory;
const BASE = 'https://pod.example/';
const NOTE = 'https://remote.example/notes/1';
const ALICE = `${BASE}actors/alice`;

/** What the audience rules know: the stored copies, and who may read each. */
class RulesStandIn {
  public readonly stored = new Map<string, StoredResource>();
  public readonly readers = new Map<string, string[]>();
  public readonly asked: { iri: string; reader: string | undefined }[] = [];

  public rules(): AudienceRules {
    return {
      read: async(iri: string): Promise<{ stored: StoredResource; addressing: Addressing } | undefined> => {
        const stored = this.stored.get(iri);
        return stored && { stored, addressing: { owners: [], recipients: [], isTombstone: false }};
      },
      mayReadReceived: async(iri: string, _addressing: Addressing, reader: string | undefined): Promise<boolean> => {
        this.asked.push({ iri, reader });
        return reader !== undefined && (this.readers.get(iri) ?? []).includes(reader);
      },
    } as unknown as AudienceRules;
  }
}

function read(id: string | undefined, agent: Agent = {}, method = 'GET'): ReturnType<typeof accessRequest> {
  return accessRequest(method, id === undefined ? `${BASE}remote` : `${BASE}remote?id=${encodeURIComponent(id)}`, agent);
}

describe('RemoteObjectAccess', (): void => {
  let standIn: RulesStandIn;
  let policy: RemoteObjectAccess;
  const note: StoredResource = { data: [ quad(namedNode(NOTE), namedNode('https://www.w3.org/ns/activitystreams#content'), literal('hi')) ], metadata: []};

  beforeEach((): void => {
    standIn = new RulesStandIn();
    standIn.stored.set(NOTE, note);
    standIn.readers.set(NOTE, [ ALICE ]);
    policy = new RemoteObjectAccess(standIn.rules(), BASE);
  });

  it('lets a reader the rules admit read the copy, and keeps what it read for the handler', async(): Promise<void> => {
    const input = read(NOTE, { webId: ALICE, username: 'alice' });
    expect(await statusOf(policy.authorize(input))).toBe(200);
    expect(standIn.asked).toEqual([{ iri: NOTE, reader: ALICE }]);
    expect(input.prefetched(NOTE)).toBe(note);
  });

  it('asks the rules about a signing remote actor by its IRI', async(): Promise<void> => {
    const remote = 'https://remote.example/users/bob';
    standIn.readers.set(NOTE, [ remote ]);
    expect(await statusOf(policy.authorize(read(NOTE, { remoteActor: remote })))).toBe(200);
  });

  it('checks deferred credentials before deciding', async(): Promise<void> => {
    const input = read(NOTE);
    input.deferAgent(async(): Promise<Agent> => ({ webId: ALICE, username: 'alice' }));
    expect(await statusOf(policy.authorize(input))).toBe(200);
  });

  it('answers 404 alike to readers the rules refuse and for copies that are not there', async(): Promise<void> => {
    for (const input of [ read(NOTE), read(NOTE, { webId: `${BASE}actors/carol`, username: 'carol' }),
      read('https://remote.example/notes/unknown', { webId: ALICE, username: 'alice' }) ]) {
      const error = await rejection(policy.authorize(input)) as { statusCode: number; errorCode: string; message: string };
      expect(error.statusCode).toBe(404);
      expect(error.errorCode).toBe('not_found');
      expect(error.message).toMatch(/^No copy of https:\/\/remote\.example\/notes\/\S+ that you may read\.$/u);
      expect(input.prefetched(NOTE)).toBeUndefined();
    }
  });

  it('answers 400 invalid_id without an http(s) IRI in ?id=', async(): Promise<void> => {
    for (const id of [ undefined, '', 'urn:uuid:1', 'ftp://remote.example/x', 'https://remote.example/a b', 'not an iri' ]) {
      const error = await rejection(policy.authorize(read(id, { webId: ALICE }))) as { statusCode: number; errorCode: string };
      expect({ id, status: error.statusCode, code: error.errorCode }).toEqual({ id, status: 400, code: 'invalid_id' });
    }
    expect(standIn.asked).toEqual([]);
  });

  it('answers 400 local_id for this server\'s own IRIs, which are read at their URLs', async(): Promise<void> => {
    const error = await rejection(policy.authorize(read(`${BASE}objects/1`, { webId: ALICE }))) as { statusCode: number; errorCode: string; message: string };
    expect(error.statusCode).toBe(400);
    expect(error.errorCode).toBe('local_id');
    expect(error.message).toBe(`${BASE}objects/1 is this server's own: read it at its URL.`);
  });

  it('refuses every write: 401 anonymous, 403 to a known agent', async(): Promise<void> => {
    for (const method of [ 'POST', 'PUT', 'PATCH', 'DELETE' ]) {
      expect(await statusOf(policy.authorize(read(NOTE, {}, method)))).toBe(401);
      expect(await statusOf(policy.authorize(read(NOTE, { webId: ALICE, username: 'alice' }, method)))).toBe(403);
    }
    expect(standIn.asked).toEqual([]);
  });

  it('lets OPTIONS through without looking anything up', async(): Promise<void> => {
    expect(await statusOf(policy.authorize(read(undefined, {}, 'OPTIONS')))).toBe(200);
    expect(standIn.asked).toEqual([]);
  });
});
