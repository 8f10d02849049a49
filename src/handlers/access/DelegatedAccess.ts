import type { AccessPolicy } from './AccessPolicy';

/**
 * The route's handler authorizes every request itself: CSS's pipeline with WebACL (the `ldp-wac`
 * setup), which reads the ACLs of the target on each request. Kept so that WebACL can be chosen in
 * config; Fedpod's own cached WAC authorizer is to replace it.
 */
export class DelegatedAccess implements AccessPolicy {
  public async authorize(): Promise<void> {
    // CSS's authorizer decides.
  }
}
