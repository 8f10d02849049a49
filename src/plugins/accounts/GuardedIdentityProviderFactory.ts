import type { IdentityProviderFactoryArgs } from '@solid/community-server';
import { IdentityProviderFactory } from '@solid/community-server';
import type { Configuration } from '@solid/community-server/templates/types/oidc-provider';
import type { OutboundGuard } from '../outbound/OutboundGuard';

type ConfigInit = (key: unknown) => Promise<Configuration>;

/**
 * CSS's IdentityProviderFactory whose oidc-provider fetches (a client's `jwks_uri` for
 * `private_key_jwt`, a `sector_identifier_uri` at registration; request URIs and back-channel logout
 * are off) go through the server's outbound guard: oidc-provider's `httpOptions` hook gives every
 * such request the guard's agent and DNS lookup, a time limit (the guard's) and a User-Agent. A
 * refused fetch fails as an unreachable `jwks_uri` does: the client is not authenticated (401).
 *
 * CSS builds the provider's configuration in a private step from its JSON config (which cannot hold
 * a function); this class wraps that step, and refuses to start when CSS no longer has it.
 */
export class GuardedIdentityProviderFactory extends IdentityProviderFactory {
  /**
   * @param config - JSON config for the OIDC library @range {json}
   * @param args - Remaining parameters required for the factory.
   * @param outbound - The server's outbound guard.
   */
  public constructor(config: Configuration, args: IdentityProviderFactoryArgs, outbound: OutboundGuard) {
    super(config, args);
    const self = this as unknown as { initConfig?: ConfigInit };
    const initConfig = self.initConfig;
    if (typeof initConfig !== 'function') {
      throw new Error('GuardedIdentityProviderFactory: CSS\'s IdentityProviderFactory has no initConfig step any more');
    }
    self.initConfig = async(key: unknown): Promise<Configuration> => {
      const built = await initConfig.call(this, key);
      // oidc-provider 8 takes `user-agent` too; CSS's copy of its types does not know it.
      built.httpOptions = (url: URL): ReturnType<NonNullable<Configuration['httpOptions']>> => ({
        agent: outbound.agentFor(url),
        dnsLookup: outbound.lookupFunction() as never,
        signal: AbortSignal.timeout(outbound.bounds.timeoutMs),
        ...{ 'user-agent': 'Fedpod' },
      });
      return built;
    };
  }
}
