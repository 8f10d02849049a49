import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Quad } from '@rdfjs/types';
import { FileAccountStore } from '../../../../src/plugins/accounts/FileAccountStore';
import { PasswordHasher } from '../../../../src/plugins/accounts/PasswordHasher';
import type { DeliveryScheduler } from '../../../../src/plugins/activitypub/DeliveryScheduler';
import type { JsonLdParser } from '../../../../src/plugins/ldp/JsonLdParser';
import type { AccountDataRemover } from '../../../../src/plugins/accounts/AccountDataRemover';
import { AccountDeletion } from '../../../../src/plugins/lifecycle/AccountDeletion';
import type { Collections } from '../../../../src/storage/Collections';
import type { ResourceGraphs } from '../../../../src/storage/ResourceGraphs';

const BASE = 'https://pod.example/';
const ALICE = `${BASE}actors/alice`;
const REMOTE = 'https://remote.example/users/bob';

describe('AccountDeletion', (): void => {
  let dataDir: string;
  let accounts: FileAccountStore;
  /** What happened, in order: the Delete's hand-over and every removal. */
  let steps: string[];
  let failRemoval: boolean;
  const hasher = new PasswordHasher();

  function deletion(): AccountDeletion {
    const members: Record<string, string[]> = {
      [`${ALICE}/followers`]: [ REMOTE, `${BASE}actors/carol` ],
      [`${ALICE}/following`]: [ REMOTE ],
      [`${ALICE}/outbox`]: [],
    };
    const stored = new Set<string>();
    const store = {
      exists: async(iri: string): Promise<boolean> => stored.has(iri),
      createInContainer: async(container: string, iri: string): Promise<void> => {
        stored.add(iri);
      },
      readData: async(): Promise<Quad[]> => [],
      delete: async(iri: string): Promise<void> => {
        if (failRemoval) {
          throw new Error('store away');
        }
        steps.push(`delete ${iri}`);
      },
    } as unknown as ResourceGraphs;
    const collections = {
      all: async(collection: string): Promise<string[]> => members[collection] ?? [],
      collectionsContaining: async(): Promise<string[]> => [ `${BASE}actors/carol/following` ],
      remove: async(collection: string, item: string): Promise<void> => {
        steps.push(`remove ${item} from ${collection}`);
      },
      clear: async(collection: string): Promise<void> => {
        steps.push(`clear ${collection}`);
      },
    } as unknown as Collections;
    const removers: AccountDataRemover = {
      removeAccountData: async(username, webId): Promise<void> => {
        steps.push(`other data of ${username} (${webId})`);
      },
    };
    const delivery: DeliveryScheduler = {
      schedule: async(activity, sender, recipients): Promise<void> => {
        steps.push(`schedule ${String(activity.type)} of ${String(activity.object)} by ${sender} to ${recipients.join(' ')}`);
      },
    };
    const parser = { toQuads: async(): Promise<Quad[]> => [] } as unknown as JsonLdParser;
    return new AccountDeletion({ baseUrl: BASE, accounts, hasher, store, parser, collections, delivery, removers });
  }

  beforeEach(async(): Promise<void> => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-account-deletion-'));
    accounts = new FileAccountStore(dataDir, 0);
    steps = [];
    failRemoval = false;
    await accounts.create({ username: 'alice', email: 'alice@example.org', webId: ALICE,
      passwordHash: await hasher.hash('the password'), created: new Date().toISOString() });
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a wrong password and changes nothing', async(): Promise<void> => {
    await expect(deletion().deleteWithPassword('alice', 'wrong')).rejects.toMatchObject({ statusCode: 403, errorCode: 'wrong_password' });
    await expect(deletion().deleteWithPassword('alice', undefined)).rejects.toMatchObject({ statusCode: 403 });
    expect(steps).toHaveLength(0);
    expect((await accounts.findByUsername('alice'))!.deleted).toBeUndefined();
  });

  it('hands the Delete over for the remote followers and followees once, before removing anything', async(): Promise<void> => {
    await deletion().deleteWithPassword('alice', 'the password');
    expect(steps[0]).toBe(`schedule Delete of ${ALICE} by alice to ${REMOTE}`);
    expect(steps.filter((step): boolean => step.startsWith('schedule'))).toHaveLength(1);
    expect(steps).toContain(`remove ${ALICE} from ${BASE}actors/carol/following`);
    expect(steps).toContain(`delete ${ALICE}`);
    expect(steps).toContain(`clear ${ALICE}/inbox`);
    expect(steps.at(-1)).toBe(`other data of alice (${ALICE})`);
    const account = (await accounts.findByUsername('alice'))!;
    expect(account.deleted).toMatchObject({ enqueued: true, done: true });
    expect(await hasher.verify('the password', account.passwordHash)).toBe(false);
    expect(await deletion().isDeleted('alice')).toBe(true);
  });

  it('keeps the account marked when removal fails, and a second run finishes without sending again', async(): Promise<void> => {
    failRemoval = true;
    await expect(deletion().delete('alice')).rejects.toThrow('store away');
    expect((await accounts.findByUsername('alice'))!.deleted).toMatchObject({ enqueued: true });
    expect((await accounts.findByUsername('alice'))!.deleted!.done).toBeUndefined();
    failRemoval = false;
    steps = [];
    await deletion().resumeAll();
    expect(steps.some((step): boolean => step.startsWith('schedule'))).toBe(false);
    expect(steps).toContain(`delete ${ALICE}`);
    expect(steps).toContain(`other data of alice (${ALICE})`);
    expect((await accounts.findByUsername('alice'))!.deleted!.done).toBe(true);
  });
});
