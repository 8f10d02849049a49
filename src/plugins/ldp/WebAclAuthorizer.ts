import type { Quad } from '@rdfjs/types';
import type { ResourceGraphs } from '../../storage/ResourceGraphs';
import type { ChangeCounter } from '../cluster/ChangeCounter';
import { CounterWatch } from '../cluster/CounterWatch';

const ACL = 'http://www.w3.org/ns/auth/acl#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const FOAF_AGENT = 'http://xmlns.com/foaf/0.1/Agent';
const AUTHENTICATED = `${ACL}AuthenticatedAgent`;

export type AccessMode = 'read' | 'write' | 'append' | 'control';

/** The modes an agent has on a resource, and what the public (anyone) has. */
export interface WacPermissions {
  user: ReadonlySet<AccessMode>;
  public: ReadonlySet<AccessMode>;
  /** The ACL document that decided (the resource's own, or the nearest ancestor's). */
  acl: string;
}

interface Authorization {
  agents: Set<string>;
  classes: Set<string>;
  origins: Set<string>;
  modes: Set<AccessMode>;
  accessTo: Set<string>;
  defaults: Set<string>;
}

interface CachedAcl {
  /** Authorizations of the ACL document; undefined when the document does not exist. */
  authorizations?: Authorization[];
}

const MODES: Record<string, AccessMode> = {
  [`${ACL}Read`]: 'read', [`${ACL}Write`]: 'write', [`${ACL}Append`]: 'append', [`${ACL}Control`]: 'control',
};

/**
 * Web Access Control (Solid WAC) decisions, read from the `.acl` documents in the store:
 * a resource's own ACL decides with its `acl:accessTo` rules; without one, the nearest ancestor
 * container's ACL decides with its `acl:default` rules. Agents by `acl:agent`, `acl:agentClass
 * foaf:Agent` (anyone) and `acl:AuthenticatedAgent` (anyone logged in); `acl:origin` restricts a rule
 * to requests from those web origins (a request without Origin is not restricted); acl:Write
 * includes acl:Append. `acl:agentGroup` is not followed (such a rule grants nothing).
 *
 * Parsed ACL documents (and which ones are missing) are cached: a decision then costs no store
 * query. The cache holds while the shared change counter reads the same: every ACL write on any
 * node bumps it (`changed`), so every node drops its cache at its next request.
 */
export class WebAclAuthorizer {
  private readonly root: string;
  private readonly cache = new Map<string, CachedAcl>();
  private readonly changes: CounterWatch;

  /**
   * @param baseUrl - Public base URL: the root container, whose ACL is the last one looked for.
   * @param store - The resource graphs (an ACL document is a resource like any other).
   * @param changes - Counts ACL changes for every node; none: this process's own changes only.
   * @param cacheSize - How many ACL documents (or their absence) are kept.
   */
  public constructor(
    baseUrl: string,
    private readonly store: ResourceGraphs,
    changes?: ChangeCounter,
    private readonly cacheSize = 10_000,
  ) {
    this.changes = new CounterWatch(changes);
    this.root = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  }

  /** What `agent` (a WebID, or undefined) and the public may do with `resource`. */
  public async permissions(resource: string, agent: string | undefined, origin: string | undefined): Promise<WacPermissions> {
    await this.checkCounter();
    let own = true;
    for (let current: string | undefined = resource; current !== undefined; current = this.parentOf(current)) {
      const acl = `${current}.acl`;
      const document = await this.load(acl);
      if (document.authorizations) {
        const applicable = document.authorizations.filter((rule): boolean =>
          own ? rule.accessTo.has(current!) : rule.defaults.has(current!));
        return {
          user: this.modesOf(applicable, agent, origin),
          public: this.modesOf(applicable, undefined, origin),
          acl,
        };
      }
      own = false;
    }
    return { user: new Set(), public: new Set(), acl: `${this.root}.acl` };
  }

  /** Call after an ACL changed (or may have: a DELETE removes a resource's ACL with it). */
  public async changed(): Promise<void> {
    this.cache.clear();
    await this.changes.bump();
  }

  /** The `.acl` document of a resource. */
  public aclOf(resource: string): string {
    return `${resource}.acl`;
  }

  private async checkCounter(): Promise<void> {
    if (await this.changes.moved()) {
      this.cache.clear();
    }
  }

  private async load(acl: string): Promise<CachedAcl> {
    const cached = this.cache.get(acl);
    if (cached) {
      return cached;
    }
    const generation = this.changes.generation;
    const quads = await this.store.readData(acl);
    const entry: CachedAcl = quads.length > 0 || await this.store.exists(acl) ? { authorizations: this.parse(quads) } : {};
    // Kept only if no change was seen meanwhile.
    if (generation === this.changes.generation) {
      if (this.cache.size >= this.cacheSize) {
        this.cache.delete(this.cache.keys().next().value!);
      }
      this.cache.set(acl, entry);
    }
    return entry;
  }

  private parse(quads: Quad[]): Authorization[] {
    const rules = new Map<string, Authorization>();
    const rule = (subject: string): Authorization => {
      let found = rules.get(subject);
      if (!found) {
        found = { agents: new Set(), classes: new Set(), origins: new Set(), modes: new Set(), accessTo: new Set(), defaults: new Set() };
        rules.set(subject, found);
      }
      return found;
    };
    const typed = new Set<string>();
    for (const { subject, predicate, object } of quads) {
      const value = object.value;
      switch (predicate.value) {
        case RDF_TYPE:
          if (value === `${ACL}Authorization`) {
            typed.add(subject.value);
          }
          break;
        case `${ACL}agent`: rule(subject.value).agents.add(value); break;
        case `${ACL}agentClass`: rule(subject.value).classes.add(value); break;
        case `${ACL}origin`: rule(subject.value).origins.add(value.replace(/\/$/u, '')); break;
        case `${ACL}accessTo`: rule(subject.value).accessTo.add(value); break;
        case `${ACL}default`: rule(subject.value).defaults.add(value); break;
        case `${ACL}mode`:
          if (MODES[value]) {
            rule(subject.value).modes.add(MODES[value]);
          }
          break;
        default:
          break;
      }
    }
    return [ ...rules.entries() ].filter(([ subject ]): boolean => typed.has(subject)).map(([ , found ]): Authorization => found);
  }

  private modesOf(rules: Authorization[], agent: string | undefined, origin: string | undefined): Set<AccessMode> {
    const modes = new Set<AccessMode>();
    for (const rule of rules) {
      const applies = rule.classes.has(FOAF_AGENT) || (agent !== undefined &&
        (rule.agents.has(agent) || rule.classes.has(AUTHENTICATED)));
      if (!applies || (origin !== undefined && rule.origins.size > 0 && !rule.origins.has(origin))) {
        continue;
      }
      for (const mode of rule.modes) {
        modes.add(mode);
        if (mode === 'write') {
          modes.add('append');
        }
      }
    }
    return modes;
  }

  /** The container of a resource under the root; undefined for the root and outside it. */
  public parentOf(iri: string): string | undefined {
    if (iri === this.root || !iri.startsWith(this.root)) {
      return undefined;
    }
    const trimmed = iri.endsWith('/') ? iri.slice(0, -1) : iri;
    return trimmed.slice(0, trimmed.lastIndexOf('/') + 1);
  }
}
