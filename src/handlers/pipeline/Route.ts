import type { HttpHandler } from '@solid/community-server';
import type { AccessPolicy } from '../access/AccessPolicy';

/**
 * One entry of the route table: the paths it serves (templates relative to the base URL's path:
 * `/actors/:user/inbox`, `/objects/:id`, `/*`), the methods (none = all), what it needs before its
 * handler runs (its access policy, its body limit) and the handler. The name labels log lines and metrics.
 */
export class Route {
  /**
   * @param name - Label in logs and metrics (never a raw path).
   * @param paths - find-my-way templates: `:name` is one segment, `*` the rest.
   * @param access - The authorization step.
   * @param handler - Serves what the access policy let through; none: the pipeline's default handler
   *   (CSS's chain: middleware, Fedpod's handlers, then CSS's LDP handler).
   * @param methods - Methods served; empty for all.
   * @param maxBodyBytes - Largest body this route takes; none: the pipeline's limit.
   * @param authenticate - False for a route whose handler takes credentials of its own kind (the
   *   metrics scrape token): the pipeline then reads no Authorization header and the agent is anonymous.
   */
  public constructor(
    public readonly name: string,
    public readonly paths: string[],
    public readonly access: AccessPolicy,
    public readonly handler?: HttpHandler,
    public readonly methods: string[] = [],
    public readonly maxBodyBytes?: number,
    public readonly authenticate = true,
  ) {}
}
