import type { ServerResponse } from 'node:http';
import type { AccessMode, WacPermissions, WebAclAuthorizer } from '../../plugins/ldp/WebAclAuthorizer';
import type { ResourceGraphs } from '../../storage/ResourceGraphs';
import { agentIri } from '../http/Agent';
import type { AccessPolicy } from './AccessPolicy';
import { wacAllow, WRITE_METHODS } from './AccessPolicy';
import type { Operation } from '../http/Operation';
import { refusal } from './AccessErrors';

const ACL_SUFFIX = '.acl';
const META_SUFFIX = '.meta';
const MODE_ORDER: AccessMode[] = [ 'read', 'write', 'append', 'control' ];

/**
 * Web Access Control on every request of the LDP paths (`ldp-wac`; in the ActivityPub setup, behind
 * UserStorageAccess), from the cached decisions of WebAclAuthorizer, so that reads and JSON POSTs
 * are served by the fast handlers and nothing goes unchecked:
 * - GET, HEAD: acl:Read; POST: acl:Append on the container;
 * - PUT, PATCH of an existing resource: acl:Write (PATCH: acl:Append or acl:Write; CSS's own WebACL
 *   check, on the path it serves, then tells an insert-only patch from one that deletes);
 * - PUT, PATCH of a new resource: acl:Append on its container and acl:Append or acl:Write on itself;
 * - DELETE: acl:Write;
 * - anything on a `.acl` document: acl:Control of its resource; a `.meta` document follows its resource.
 * A write to an ACL (or a DELETE, which removes one with its resource) drops the cached decisions on
 * every node. Refusals: 401 anonymous, 403 otherwise.
 */
export class WebAclAccess implements AccessPolicy {
  /**
   * @param authorizer - The cached WAC decisions.
   * @param store - The resource graphs (does a written resource exist yet?).
   */
  public constructor(
    private readonly authorizer: WebAclAuthorizer,
    private readonly store: ResourceGraphs,
  ) {}

  public async authorize(operation: Operation): Promise<void> {
    const { request, response, method, target: { iri: target }, agent } = operation;
    if (method === 'OPTIONS') {
      return;
    }
    const isAcl = target.endsWith(ACL_SUFFIX);
    const subject = isAcl ? target.slice(0, -ACL_SUFFIX.length) : target.endsWith(META_SUFFIX) ?
      target.slice(0, -META_SUFFIX.length) :
      target;
    const webId = agentIri(agent);
    const origin = request.headers.origin;
    const permissions = await this.authorizer.permissions(subject, webId, origin);
    operation.decide({ headers: {
      'wac-allow': wacAllow(modeList(permissions.user), modeList(permissions.public)),
      link: `<${this.authorizer.aclOf(subject)}>; rel="acl"`,
    }});
    const allowed = isAcl ?
      permissions.user.has('control') :
      await this.allows(method, subject, permissions, webId, origin);
    if (!allowed) {
      throw refusal(agent, `WebACL does not give you ${this.needed(method, isAcl)} here.`);
    }
    if (WRITE_METHODS.has(method) && (isAcl || method === 'DELETE')) {
      this.forgetOnFinish(response);
    }
  }

  private async allows(method: string, target: string, permissions: WacPermissions, webId: string | undefined,
    origin: string | undefined): Promise<boolean> {
    const user = permissions.user;
    switch (method) {
      case 'GET':
      case 'HEAD':
        return user.has('read');
      case 'POST':
        return user.has('append');
      case 'DELETE':
        return user.has('write');
      case 'PUT':
      case 'PATCH': {
        if (await this.store.exists(target)) {
          return method === 'PUT' ? user.has('write') : user.has('append');
        }
        const parent = this.authorizer.parentOf(target);
        const parentModes = parent ? (await this.authorizer.permissions(parent, webId, origin)).user : new Set<AccessMode>();
        return user.has('append') && parentModes.has('append');
      }
      default:
        // Methods it does not know reach the handler, which refuses them.
        return true;
    }
  }

  private needed(method: string, isAcl: boolean): string {
    if (isAcl) {
      return 'acl:Control';
    }
    return method === 'GET' || method === 'HEAD' ? 'acl:Read' : method === 'POST' ? 'acl:Append' : 'acl:Write';
  }

  /** The cache is dropped when the change is done, whatever its outcome, and once before (now). */
  private forgetOnFinish(response: ServerResponse): void {
    void this.authorizer.changed();
    response.once('close', (): void => {
      void this.authorizer.changed();
    });
  }
}

function modeList(modes: ReadonlySet<AccessMode>): AccessMode[] {
  return MODE_ORDER.filter((mode): boolean => modes.has(mode));
}
