import { createPrivateKey } from 'node:crypto';
import type { ReadWriteLocker } from '@solid/community-server';
import { getLoggerFor, Initializer } from '@solid/community-server';
import { documentMetadata, type ResourceGraphs } from '../../../storage/ResourceGraphs';
import { withRenewedWriteLock } from '../../../util/RenewedLock';
import type { JsonLdParser } from '../../ldp/JsonLdParser';
import { actorDocument } from '../ActorDocument';
import { ActorUrls } from '../ActorUrls';
import type { ActorKeyStore } from '../ActorKeyStore';
import type { RemoteActorCache } from './RemoteActorCache';

/** The instance actor's name: a reserved username, so no account can take it. */
export const INSTANCE_ACTOR = 'instance';

/**
 * The server's own actor (`{base}actors/instance`, type Application), created at first start with its
 * key pair, and used to sign Fedpod's GETs of remote actors and keys: servers with authorized fetch
 * (Mastodon's secure mode) answer only signed GETs.
 */
export class InstanceActorInitializer extends Initializer {
  protected readonly logger = getLoggerFor(this);
  private readonly urls: ActorUrls;

  /**
   * @param locker - Keeps nodes that start together on one data directory from each making a key.
   */
  public constructor(
    baseUrl: string,
    private readonly keys: ActorKeyStore,
    private readonly store: ResourceGraphs,
    private readonly parser: JsonLdParser,
    private readonly actors: RemoteActorCache,
    private readonly locker?: ReadWriteLocker,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public async handle(): Promise<void> {
    const iri = this.urls.actor(INSTANCE_ACTOR);
    const privateKeyPem = this.locker ?
      // Renewed while held: making a key pair and writing the actor may take longer than the lock's
      // expiry on a busy machine, and an expired lock would fail start-up.
      await withRenewedWriteLock(this.locker, { path: iri }, async(): Promise<string> => this.ensureActor(iri)) :
      await this.ensureActor(iri);
    this.actors.useInstanceKey({ keyId: `${iri}#main-key`, privateKey: createPrivateKey(privateKeyPem) });
  }

  /** The instance actor's private key, the actor and its keys made first if missing. */
  private async ensureActor(iri: string): Promise<string> {
    let privateKeyPem = await this.keys.privateKeyPem(INSTANCE_ACTOR);
    if (!privateKeyPem || !await this.store.exists(iri)) {
      await this.keys.remove(INSTANCE_ACTOR);
      const created = await this.keys.create(INSTANCE_ACTOR);
      privateKeyPem = created.privateKeyPem;
      const now = new Date();
      const document = { ...actorDocument(this.urls, INSTANCE_ACTOR, created.publicKeyPem, now.toISOString()),
        type: 'Application', name: 'Fedpod instance actor', manuallyApprovesFollowers: true };
      await this.store.write(iri, this.urls.url('actors'), documentMetadata(iri, now), await this.parser.toQuads(document, iri));
      this.logger.info(`Created the instance actor ${iri}`);
    }
    return privateKeyPem;
  }
}
