import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Quad } from '@rdfjs/types';
import { getLoggerFor, Initializer } from '@solid/community-server';
import { DataFactory } from 'n3';
import type { ResourceGraphs } from '../../storage/ResourceGraphs';
import { writeFileDurably } from '../../util/DurableFiles';
import { ActorUrls } from '../activitypub/ActorUrls';
import type { UserStorage } from '../ldp/UserStorage';
import type { AccountStore } from './AccountStore';

const { namedNode, quad } = DataFactory;

const SOLID_OIDC_ISSUER = 'http://www.w3.org/ns/solid/terms#oidcIssuer';
const PIM_STORAGE = 'http://www.w3.org/ns/pim/space#storage';

/**
 * Brings the WebIDs of accounts made before the OpenID provider was switched on up to date: each
 * gets `solid:oidcIssuer` (without it no Solid-OIDC token for that WebID is accepted) and, where
 * the setup gives users storage, `pim:storage` (and the storage itself, or its ACL, when the account
 * lacks it: accounts made before the setup gave storages). Signup writes both for new accounts. It
 * runs once per issuer and storage choice: a marker file in the data directory records that every
 * account was seen.
 */
export class SolidProfileInitializer extends Initializer {
  protected readonly logger = getLoggerFor(this);
  private readonly urls: ActorUrls;
  private readonly marker: string;

  public constructor(
    baseUrl: string,
    dataDir: string,
    private readonly accounts: AccountStore,
    private readonly store: ResourceGraphs,
    private readonly oidcIssuer: string,
    private readonly storage?: UserStorage,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
    this.marker = path.join(dataDir, 'accounts', 'solid-profiles-done');
  }

  public async handle(): Promise<void> {
    const done = `${this.oidcIssuer} ${this.storage ? 'storage' : ''}`.trim();
    if (await fs.readFile(this.marker, 'utf8').catch((): string => '') === done) {
      return;
    }
    let updated = 0;
    for (const username of await this.accounts.list()) {
      if (await this.update(username)) {
        updated += 1;
      }
    }
    if (updated > 0) {
      this.logger.info(`Added solid:oidcIssuer${this.storage ? ' and pim:storage' : ''} to ${updated} WebID(s)`);
    }
    await fs.mkdir(path.dirname(this.marker), { recursive: true, mode: 0o700 });
    await writeFileDurably(this.marker, done);
  }

  private async update(username: string): Promise<boolean> {
    const webId = this.urls.actor(username);
    const stored = await this.store.read(webId);
    if (!stored) {
      return false;
    }
    const wanted: Quad[] = [ quad(namedNode(webId), namedNode(SOLID_OIDC_ISSUER), namedNode(this.oidcIssuer)) ];
    if (this.storage) {
      const container = this.storage.storageOf(username);
      // An account made under a setup without user storage gets one now, as signup would give it;
      // what a start stopped half-way left is completed, never made twice.
      await this.storage.ensure(username, webId);
      wanted.push(quad(namedNode(webId), namedNode(PIM_STORAGE), namedNode(container)));
    }
    const missing = wanted.filter((wish): boolean => !stored.data.some((present): boolean => present.equals(wish)));
    if (missing.length === 0) {
      return false;
    }
    await this.store.write(webId, this.urls.url('actors'), stored.metadata, [ ...stored.data, ...missing ]);
    return true;
  }
}
