import type { TargetExtractor } from '@solid/community-server';
import { BearerWebIdExtractor, DPoPWebIdExtractor } from '@solid/community-server';
import { createSolidTokenVerifier, type SolidTokenVerifierFunction } from '@solid/access-token-verifier';
import type { SolidOidcSources } from '../../plugins/accounts/SolidOidcSources';

type Caches = Parameters<typeof createSolidTokenVerifier>;

/** @solid/access-token-verifier, reading WebIDs and issuers' keys through the outbound guard (SolidOidcSources). */
function guardedVerifier(sources: SolidOidcSources): SolidTokenVerifierFunction {
  return createSolidTokenVerifier(undefined, sources as unknown as Caches[1], sources as unknown as Caches[2]);
}

/**
 * CSS's DPoPWebIdExtractor, whose token verifier fetches the WebID and the issuer's keys through the
 * server's outbound guard instead of node-fetch and jose's remote key set (which reached any address).
 */
export class GuardedDPoPWebIdExtractor extends DPoPWebIdExtractor {
  /**
   * @param originalUrlExtractor - Reconstructs the original URL as requested by the client.
   * @param sources - WebIDs and issuers' keys, through the outbound guard.
   */
  public constructor(originalUrlExtractor: TargetExtractor, sources: SolidOidcSources) {
    super(originalUrlExtractor);
    (this as unknown as { verify: SolidTokenVerifierFunction }).verify = guardedVerifier(sources);
  }
}

/** CSS's BearerWebIdExtractor, with the token verifier of GuardedDPoPWebIdExtractor. */
export class GuardedBearerWebIdExtractor extends BearerWebIdExtractor {
  /**
   * @param sources - WebIDs and issuers' keys, through the outbound guard.
   */
  public constructor(sources: SolidOidcSources) {
    super();
    (this as unknown as { verify: SolidTokenVerifierFunction }).verify = guardedVerifier(sources);
  }
}
