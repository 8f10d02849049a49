import type { Quad } from '@rdfjs/types';
import type { ResourceIdentifier } from '@solid/community-server';
import { StorageDescriber } from '@solid/community-server';
import { DataFactory } from 'n3';
import { fillPath, MINTED_PATHS } from '../../util/PathTemplates';

const NOTIFICATION_GATEWAY = 'http://www.w3.org/ns/solid/terms#notificationGateway';

/**
 * Names the notification gateway in the storage description (`/.well-known/solid`), beside CSS's
 * `notify:subscription` services: Inrupt's notification library (`@inrupt/solid-client-notifications`)
 * looks for `solid:notificationGateway` only, on the description's first subject (the storage).
 */
export class NotificationGatewayDescriber extends StorageDescriber {
  private readonly gateway: string;

  /** @param baseUrl - Public base URL: the gateway is served under it (NotificationGatewayHandler). */
  public constructor(baseUrl: string) {
    super();
    this.gateway = `${baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`}${fillPath(MINTED_PATHS.notificationGateway.template)}`;
  }

  public async handle(target: ResourceIdentifier): Promise<Quad[]> {
    return [ DataFactory.quad(DataFactory.namedNode(target.path), DataFactory.namedNode(NOTIFICATION_GATEWAY),
      DataFactory.namedNode(this.gateway)) ];
  }
}
