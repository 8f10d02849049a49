import type { HttpHandler } from '@solid/community-server';
import type { AccessPolicy } from '../access/AccessPolicy';
import type { Admission } from './Admission';
import type { Guard } from './Guard';

/** What a route declares (an options object: more than six settings). */
export interface RouteOptions {
  /** Label in logs and metrics (never a raw path). */
  name: string;
  /** find-my-way templates relative to the base URL's path: `:name` is one segment, `*` the rest. */
  paths: string[];
  /** The authorization step. */
  access: AccessPolicy;
  /**
   * Serves what the access policy let through. Only LDP routes (the default route and the webhook
   * data) leave it out: they are served by the pipeline's default handler (Fedpod's LDP handlers, then
   * CSS's). A route of a resource that is also an LDP resource may end its handler list with that
   * handler (`urn:solid-server:default:HttpHandler`) for the representations it does not make itself.
   */
  handler?: HttpHandler;
  /**
   * Methods served. None: every method that no other route claims for the same template (so a
   * `POST`-only route and an all-methods route can share a path).
   */
  methods?: string[];
  /**
   * What the methods no route claims on this route's templates get: `refuse` (the default) answers them
   * 405 with `Allow` before any other step; `ldp` leaves them to the LDP resources, for a template that is
   * also an LDP resource (`/actors/` takes POST here, and is a container to read).
   */
  otherMethods?: 'refuse' | 'ldp';
  /** Largest body this route takes; none: the pipeline's limit. */
  maxBodyBytes?: number;
  /**
   * Media types a body may have (`application/json`, or `application/*+json` for any such suffixed type); none:
   * any. A body of another type is refused with 415 before the handler is reached.
   */
  mediaTypes?: string[];
  /** Whether the server takes such a request now (load shedding), asked before anything else. */
  admission?: Admission;
  /**
   * False for a route whose handler takes credentials of its own kind (the metrics scrape token):
   * the pipeline then reads no Authorization header and the agent is anonymous.
   */
  authenticate?: boolean;
  /** Checks run once the request is authenticated, before the access policy (rate limits, RateLimitGuard). */
  guards?: Guard[];
}

/**
 * One entry of the route table: the paths it serves, the methods, what it needs before its handler
 * runs (admission, media types, body limit, guards, access policy) and the handler.
 */
export class Route {
  public readonly name: string;
  public readonly paths: string[];
  public readonly access: AccessPolicy;
  public readonly handler?: HttpHandler;
  public readonly methods: string[];
  public readonly otherMethods: 'refuse' | 'ldp';
  public readonly maxBodyBytes?: number;
  public readonly mediaTypes: string[];
  public readonly authenticate: boolean;
  public readonly admission?: Admission;
  public readonly guards: Guard[];

  public constructor(private readonly options: RouteOptions) {
    this.name = options.name;
    this.paths = options.paths;
    this.access = options.access;
    this.handler = options.handler;
    this.methods = (options.methods ?? []).map((method): string => method.toUpperCase());
    this.otherMethods = options.otherMethods ?? 'refuse';
    this.maxBodyBytes = options.maxBodyBytes;
    this.mediaTypes = (options.mediaTypes ?? []).map((type): string => type.toLowerCase());
    this.authenticate = options.authenticate ?? true;
    this.admission = options.admission;
    this.guards = options.guards ?? [];
  }

  /** This route with `guards` run before its own (a route group's guards). */
  public withGuards(guards: Guard[]): Route {
    return new Route({ ...this.options, guards: [ ...guards, ...this.guards ]});
  }
}
