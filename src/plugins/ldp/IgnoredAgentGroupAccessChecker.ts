import type { AccessCheckerArgs } from '@solid/community-server';
import { AccessChecker } from '@solid/community-server';

/**
 * In place of CSS's AgentGroupAccessChecker, which fetched the group document an ACL rule's
 * `acl:agentGroup` names, from any address, on each request the rule was read for: `acl:agentGroup`
 * grants nothing and nothing is fetched, as Fedpod's own WebACL authorizer does (docs/solid.md).
 */
export class IgnoredAgentGroupAccessChecker extends AccessChecker {
  public async handle(_input: AccessCheckerArgs): Promise<boolean> {
    return false;
  }
}
