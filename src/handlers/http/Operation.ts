import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpHandlerInput, HttpRequest } from '@solid/community-server';
import type { StoredResource } from '../../storage/ResourceGraphs';
import type { Agent } from './Agent';
import { ANONYMOUS } from './Agent';
import { canonicalTarget } from './CanonicalTarget';

/** The request target, parsed once by the pipeline. */
export interface OperationTarget {
  /** The absolute IRI addressed: the base URL's origin and the canonical path, without the query. */
  iri: string;
  /** The canonical path (the base URL's path included), without the query. */
  path: string;
  query: URLSearchParams;
  /** The canonical query as a string: `?` and the query, or empty. */
  search: string;
  /**
   * The target as the client sent it, before the pipeline gave it its canonical spelling: what an
   * HTTP signature's `(request-target)` or `@target-uri` covers.
   */
  sent: string;
}

/** The route that took the request; `template` is absent on the default (LDP) route, which names no paths. */
export interface OperationRoute {
  name: string;
  template?: string;
}

/** What the route's access policy established, for the handler. */
export interface AccessDecision {
  /** Headers the decision gives the answer (`WAC-Allow`, and `Link rel="acl"` under WebACL). */
  headers?: Readonly<Record<string, string>>;
  /** A resource the policy read to decide, so that the handler does not read it again. */
  prefetched?: { iri: string; stored: StoredResource };
}

export interface OperationOptions {
  /** The request, guarded (CSS's guardStream) as handlers receive it. */
  request: HttpRequest;
  response: ServerResponse;
  target: OperationTarget;
  route?: OperationRoute;
  /** Values of the route template's parameters (`:user` → `params.user`). */
  params?: Readonly<Record<string, string | undefined>>;
  agent?: Agent;
}

/**
 * What a handler reached through the pipeline receives. CSS's handlers take the plain input and
 * pass the same object on (`handleSafe(input)`), so the operation reaches Fedpod's handlers behind
 * them too.
 */
export interface OperationInput extends HttpHandlerInput {
  operation: Operation;
}

/**
 * The operation of a request, for CSS components that only get the request (its credentials
 * extractor), and for a request a handler replays into CSS with its body (RdfBodyGuardHandler).
 */
const operations = new WeakMap<IncomingMessage, Operation>();

/**
 * One request as the pipeline understood it, built once and handed to the route's access policy and
 * then to its handler: the route and its parameters, the parsed target, the authenticated agent
 * (with credentials checked only when asked: resolveAgent) and what the access policy decided.
 */
export class Operation {
  public readonly request: HttpRequest;
  public readonly response: ServerResponse;
  /** The request's method as sent (HEAD as asked). */
  public readonly method: string;
  public readonly route: OperationRoute;
  public readonly params: Readonly<Record<string, string | undefined>>;
  public readonly target: OperationTarget;
  private current: Agent;
  private deferred?: () => Promise<Agent>;
  private resolving?: Promise<Agent>;
  private decision: AccessDecision = {};

  public constructor(options: OperationOptions) {
    this.request = options.request;
    this.response = options.response;
    this.method = options.request.method ?? 'GET';
    this.route = options.route ?? { name: 'ldp' };
    this.params = options.params ?? {};
    this.target = options.target;
    this.current = options.agent ?? ANONYMOUS;
  }

  /**
   * The parsed target of an origin-form request target (`/path?query`) on `origin`; undefined when
   * it is not a valid path (canonicalTarget).
   */
  public static parseTarget(origin: string, sent: string): OperationTarget | undefined {
    const canonical = canonicalTarget(sent);
    if (!canonical) {
      return undefined;
    }
    return { iri: `${origin}${canonical.pathname}`, path: canonical.pathname, query: new URLSearchParams(canonical.search),
      search: canonical.search, sent };
  }

  /** The operation the pipeline built for `request`, if it went through the pipeline. */
  public static of(request: IncomingMessage): Operation | undefined {
    return operations.get(request);
  }

  /** Makes this the operation of `request` (the pipeline's request, or a replay of it) for Operation.of. */
  public bind(request: IncomingMessage): this {
    operations.set(request, this);
    return this;
  }

  /** The authenticated agent (anonymous when none), without the credentials whose check is deferred. */
  public get agent(): Agent {
    return this.current;
  }

  /** Sets the agent the authentication step found. */
  public authenticated(agent: Agent): void {
    this.current = agent;
  }

  /**
   * Registers a check of the request's credentials that is made only when asked (resolveAgent): a
   * remote actor's HTTP signature on a GET costs a fetch of its key, which a public document never
   * needs. (Checking every signed GET at once also lets two servers that sign the fetches of each
   * other's keys wait on each other without end.)
   */
  public deferAgent(check: () => Promise<Agent>): void {
    this.deferred = check;
  }

  /**
   * The agent with its deferred credentials checked (once per request); rejects with a 401 when
   * they are invalid. Asked only where the answer depends on who is reading.
   */
  public async resolveAgent(): Promise<Agent> {
    const check = this.deferred;
    if (!check) {
      return this.current;
    }
    this.resolving ??= check().then((agent): Agent => {
      this.current = agent;
      return agent;
    });
    return this.resolving;
  }

  /** What the access policy decided (empty until it records something). */
  public get access(): Readonly<AccessDecision> {
    return this.decision;
  }

  /** Records (part of) the access policy's decision for the handler. */
  public decide(decision: AccessDecision): void {
    this.decision = { ...this.decision, ...decision };
  }

  /** The resource read for `iri` while authorizing this request, if any. */
  public prefetched(iri: string): StoredResource | undefined {
    const entry = this.decision.prefetched;
    return entry?.iri === iri ? entry.stored : undefined;
  }
}
