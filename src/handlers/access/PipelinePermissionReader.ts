import type { PermissionMap, PermissionReaderInput } from '@solid/community-server';
import { IdentifierMap, PermissionReader } from '@solid/community-server';
import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import { ANONYMOUS, webIdAgent } from '../http/Agent';
import type { ReadDecisions } from './ReadDecisions';

/**
 * CSS's permission question ("what may these credentials do here?") answered by the pipeline's own
 * access rules: read is allowed exactly when a GET of the resource by the same agent would be (the
 * audience rules of the ActivityPub setup, the WebACL or public-append rules of the LDP setups). It
 * judges Solid notification subscriptions, so that only who may read a resource hears of its
 * changes. It grants nothing but read. (`decisions` is the pipeline, through ReadDecisions.)
 */
export class PipelinePermissionReader extends PermissionReader {
  private readonly actorUrls: ActorUrls;

  public constructor(baseUrl: string, private readonly decisions: ReadDecisions) {
    super();
    this.actorUrls = new ActorUrls(baseUrl);
  }

  public async handle({ credentials, requestedModes }: PermissionReaderInput): Promise<PermissionMap> {
    const webId = credentials.agent?.webId;
    const agent = webId ? webIdAgent(this.actorUrls, webId) : ANONYMOUS;
    const permissions: PermissionMap = new IdentifierMap();
    for (const identifier of requestedModes.distinctKeys()) {
      permissions.set(identifier, { read: await this.decisions.mayRead(identifier.path, agent) });
    }
    return permissions;
  }
}
