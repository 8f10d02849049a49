import type { ResourceStore } from '@solid/community-server';
import { BasicRepresentation, getLoggerFor, Initializer } from '@solid/community-server';

/**
 * The default rules of the WebACL setup, written to `{base}.acl` at start-up when that document is missing:
 *
 * - everyone (foaf:Agent, logged in or not) may Read every resource (acl:default on the root);
 * - the owner WebID(s), if configured, may Read, Write (so also Append) and Control (edit ACLs) everything;
 * - nobody else may write: not even authenticated agents, since with no identity provider of its own
 *   the server would accept any Solid-OIDC login from anywhere as "authenticated".
 *
 * With no owner configured the server is read-only over HTTP until an operator edits the root ACL
 * in the store. An existing root ACL is never changed: rules edited by the owner survive restarts,
 * and changing the configured owner later does not rewrite them.
 */
export function rootAclTurtle(owners: readonly string[]): string {
  const lines = [
    '# Root ACL created by Fedpod at first start-up (WebACL setup). Edit it to change the rules;',
    '# Fedpod does not touch it again while it exists.',
    '@prefix acl: <http://www.w3.org/ns/auth/acl#>.',
    '@prefix foaf: <http://xmlns.com/foaf/0.1/>.',
    '',
    '# Everyone may read everything.',
    '<#public>',
    '    a acl:Authorization;',
    '    acl:agentClass foaf:Agent;',
    '    acl:mode acl:Read;',
    '    acl:accessTo <./>;',
    '    acl:default <./>.',
    '',
  ];
  if (owners.length > 0) {
    lines.push(
      '# The owner may read, write and change the access rules of everything.',
      '<#owner>',
      '    a acl:Authorization;',
      `    acl:agent ${owners.map((owner): string => `<${owner}>`).join(', ')};`,
      '    acl:mode acl:Read, acl:Write, acl:Control;',
      '    acl:accessTo <./>;',
      '    acl:default <./>.',
      '',
    );
  } else {
    lines.push(
      '# No owner was configured (--owner-webid): nobody may write. Add an authorization such as',
      '# <#owner> a acl:Authorization; acl:agent <https://you.example/profile/card#me>;',
      '#     acl:mode acl:Read, acl:Write, acl:Control; acl:accessTo <./>; acl:default <./>.',
      '',
    );
  }
  return lines.join('\n');
}

/** Splits a list of WebIDs (spaces or commas) and checks each is an absolute http(s) IRI. */
export function parseOwners(value: string): string[] {
  return value.split(/[\s,]+/u).filter((owner): boolean => owner !== '').map((owner): string => {
    let url: URL;
    try {
      url = new URL(owner);
    } catch {
      throw new Error(`The owner WebID ${JSON.stringify(owner)} is not an absolute IRI.`);
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || /[<>"{}|^`\\\s]/u.test(owner)) {
      throw new Error(`The owner WebID ${JSON.stringify(owner)} is not an http(s) IRI.`);
    }
    return owner;
  });
}

/**
 * Creates the root ACL (`{base}.acl`, text/turtle, through CSS's ResourceStore) at start-up when it is
 * missing, so a WebACL server is usable at all: with no root ACL, CSS denies everything to everyone.
 * Runs in CSS's CleanupInitializer sequence, i.e. before the PrimaryParallelInitializer creates
 * containers, so it never races them to create the root container.
 */
export class RootAclInitializer extends Initializer {
  protected readonly logger = getLoggerFor(this);
  private readonly aclPath: string;

  /**
   * @param baseUrl - Public base URL.
   * @param store - CSS's resource store.
   * @param owners - WebIDs given full control (space or comma separated; `fedpod start --owner-webid`);
   * empty = no owner (read-only server).
   * @param ownerlessNote - What an ACL without owner means in this setup, logged as information; without it,
   * no owner is a warning (a server nobody can write to). The setup with users' storages gives one: there,
   * users write in their own storages whatever the root ACL says, so no owner is the expected case.
   */
  public constructor(
    baseUrl: string,
    private readonly store: ResourceStore,
    private readonly owners: string,
    private readonly ownerlessNote?: string,
  ) {
    super();
    this.aclPath = `${baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`}.acl`;
  }

  public async handle(): Promise<void> {
    const owners = parseOwners(this.owners);
    if (await this.store.hasResource({ path: this.aclPath })) {
      this.logger.info(`Root ACL ${this.aclPath} exists; left as it is`);
      return;
    }
    await this.store.setRepresentation({ path: this.aclPath },
      new BasicRepresentation(rootAclTurtle(owners), { path: this.aclPath }, 'text/turtle'));
    if (owners.length > 0) {
      this.logger.info(`Created root ACL ${this.aclPath}: public read, full control for ${owners.join(', ')}`);
    } else if (this.ownerlessNote) {
      this.logger.info(`Created root ACL ${this.aclPath}: ${this.ownerlessNote}`);
    } else {
      this.logger.warn(`Created root ACL ${this.aclPath}: public read, and no owner (--owner-webid is not set), ` +
        'so nobody can write until the ACL is edited in the store');
    }
  }
}
