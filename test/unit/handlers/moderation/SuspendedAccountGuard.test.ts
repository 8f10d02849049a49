import type { ServerResponse } from 'node:http';
import type { HttpRequest } from '@solid/community-server';
import { Operation } from '../../../../src/handlers/http/Operation';
import { SuspendedAccountGuard } from '../../../../src/handlers/moderation/SuspendedAccountGuard';
import type { ActivityRepository } from '../../../../src/plugins/activitypub/ActivityRepository';
import type { AccountModerations } from '../../../../src/plugins/moderation/AccountModerations';

const BASE = 'http://localhost/';
const DAN = `${BASE}actors/dan`;

function operation(path: string, route: string, params: Record<string, string>): Operation {
  return new Operation({ request: { method: 'GET', headers: {}} as HttpRequest, response: {} as ServerResponse,
    route: { name: route }, params, target: Operation.parseTarget('http://localhost', path)! });
}

describe('SuspendedAccountGuard', () => {
  let suspended: string[];
  let read: jest.Mock;
  let guard: SuspendedAccountGuard;

  beforeEach(() => {
    suspended = [ DAN ];
    const measures = {
      isSuspended: async(actor: string): Promise<boolean> => suspended.includes(actor),
      list: async() => suspended.map((actor) => ({ actor, suspended: '2026-01-01T00:00:00.000Z' })),
    } as unknown as AccountModerations;
    read = jest.fn(async(iri: string) => ({ id: iri, attributedTo: iri.includes('dans') ? DAN : `${BASE}actors/rita` }));
    guard = new SuspendedAccountGuard(BASE, measures, { read } as unknown as ActivityRepository);
  });

  it('answers 410 for a suspended account\'s actor, collections, objects and their parts', async() => {
    await expect(guard.check(operation('/actors/dan', 'actor', { user: 'dan' }))).rejects.toMatchObject({ statusCode: 410 });
    await expect(guard.check(operation('/actors/dan/outbox', 'collection', { user: 'dan' }))).rejects.toMatchObject({ statusCode: 410 });
    await expect(guard.check(operation('/objects/dans-note', 'object', { id: 'dans-note' }))).rejects.toMatchObject({ statusCode: 410 });
    await expect(guard.check(operation('/objects/dans-note/replies', 'object-collection', { id: 'dans-note', collection: 'replies' })))
      .rejects.toMatchObject({ statusCode: 410 });
    expect(read).toHaveBeenLastCalledWith(`${BASE}objects/dans-note`);
  });

  it('passes everything of others, and reads no object while no local account is suspended', async() => {
    await expect(guard.check(operation('/actors/rita', 'actor', { user: 'rita' }))).resolves.toBeUndefined();
    await expect(guard.check(operation('/objects/ritas-note', 'object', { id: 'ritas-note' }))).resolves.toBeUndefined();
    suspended = [ 'https://remote.example/users/eve' ];
    read.mockClear();
    await expect(guard.check(operation('/objects/dans-note', 'object', { id: 'dans-note' }))).resolves.toBeUndefined();
    expect(read).not.toHaveBeenCalled();
    await expect(new SuspendedAccountGuard(BASE).check(operation('/actors/dan', 'actor', { user: 'dan' }))).resolves.toBeUndefined();
  });
});
