import type { PodStore } from '@solid/community-server';
import { AccessMode, IdentifierSetMultiMap, SuffixAuxiliaryIdentifierStrategy } from '@solid/community-server';
import { StorageOwnerPermissionReader } from '../../../../src/plugins/ldp/StorageOwnerPermissionReader';
import { UserStorageLocationStrategy } from '../../../../src/plugins/ldp/UserStorageLocationStrategy';

const BASE = 'https://pod.example/';
const CSS_POD = `${BASE}pods/carol/`;

describe('StorageOwnerPermissionReader', (): void => {
  const pods = {
    findByBaseUrl: async(baseUrl: string): Promise<{ id: string; accountId: string } | undefined> =>
      baseUrl === CSS_POD ? { id: 'carol-pod', accountId: 'carol' } : undefined,
    getOwners: async(): Promise<{ webId: string; visible: boolean }[]> => [ { webId: 'https://carol.example/#me', visible: false } ],
  } as unknown as PodStore;
  const reader = new StorageOwnerPermissionReader(pods, new SuffixAuxiliaryIdentifierStrategy('.acl'), new UserStorageLocationStrategy(BASE));
  const logger = (reader as unknown as { logger: { error: (message: string) => void; debug: (message: string) => void } }).logger;

  afterEach((): void => {
    jest.restoreAllMocks();
  });

  const read = async(acl: string, webId: string): Promise<unknown> => reader.handle({
    credentials: { agent: { webId } },
    requestedModes: new IdentifierSetMultiMap<AccessMode>([[{ path: acl }, AccessMode.read ]]),
  }).then((result): unknown => result.get({ path: acl }));

  it('grants the owners of a CSS pod control of its ACLs, as CSS\'s reader does', async(): Promise<void> => {
    expect(await read(`${CSS_POD}.acl`, 'https://carol.example/#me')).toEqual(
      { read: true, write: true, append: true, create: true, delete: true, control: true });
    expect(await read(`${CSS_POD}.acl`, 'https://mallory.example/#me')).toBeUndefined();
  });

  it('leaves a storage that is not a CSS pod to its ACL, logging no error', async(): Promise<void> => {
    const error = jest.spyOn(logger, 'error');
    const debug = jest.spyOn(logger, 'debug');
    expect(await read(`${BASE}pods/alice/notes.acl`, 'https://alice.example/#me')).toBeUndefined();
    expect(await read(`${BASE}.acl`, 'https://alice.example/#me')).toBeUndefined();
    expect(error).not.toHaveBeenCalled();
    expect(debug).toHaveBeenCalledWith(`${BASE}pods/alice/ is not a CSS pod: its ACL alone decides who controls it`);
  });
});
