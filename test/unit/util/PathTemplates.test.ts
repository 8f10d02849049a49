import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PublicAccess } from '../../../src/handlers/access/PublicAccess';
import { Route } from '../../../src/handlers/pipeline/Route';
import type { MethodMismatch, RouteMatch } from '../../../src/handlers/pipeline/RouteTable';
import { RouteTable } from '../../../src/handlers/pipeline/RouteTable';
import { fillPath, MINTED_PATHS } from '../../../src/util/PathTemplates';

type Json = Record<string, unknown>;
const ROOT = join(__dirname, '../../..');

/** Every JSON object of a setup's config files (its own and the Fedpod parts it imports), depth first. */
function objectsOf(setup: string): Json[] {
  const objects: Json[] = [];
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) {
      return;
    }
    seen.add(file);
    const config = JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Json;
    for (const imported of (config.import ?? []) as string[]) {
      if (imported.startsWith('fedpod:')) {
        visit(imported.slice('fedpod:'.length));
      }
    }
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) {
        value.forEach(walk);
      } else if (value && typeof value === 'object') {
        objects.push(value as Json);
        Object.values(value).forEach(walk);
      }
    };
    walk(config['@graph']);
  };
  visit(`config/${setup}.json`);
  return objects;
}

function idsIn(value: unknown, ids = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    value.forEach((entry): Set<string> => idsIn(entry, ids));
  } else if (value && typeof value === 'object') {
    const id = (value as Json)['@id'];
    if (typeof id === 'string') {
      ids.add(id);
    }
    Object.values(value).forEach((entry): Set<string> => idsIn(entry, ids));
  }
  return ids;
}

function routesOf(objects: Json[]): { route: Route; config: Json }[] {
  return objects.filter((object): boolean => object['@type'] === 'Route').map((config): { route: Route; config: Json } => ({
    config,
    route: new Route({
      name: config.options_name as string,
      paths: config.options_paths as string[],
      methods: config.options_methods as string[] | undefined,
      otherMethods: config.options_otherMethods as 'refuse' | 'ldp' | undefined,
      access: new PublicAccess(),
    }),
  }));
}

/** The name of the route a request finds: `ldp` for none, `405` for a path whose routes take other methods. */
function routeName(found: RouteMatch | MethodMismatch | undefined): string {
  if (!found) {
    return 'ldp';
  }
  return 'route' in found ? found.route.name : '405';
}

describe('PathTemplates', () => {
  it('fills a template\'s segments, each percent-encoded, without the leading slash', () => {
    expect(fillPath('/actors/:user/:collection', { user: 'alice', collection: 'inbox' })).toBe('actors/alice/inbox');
    expect(fillPath('/objects/:id', { id: 'a/b c' })).toBe('objects/a%2Fb%20c');
    expect(fillPath('/activities/')).toBe('activities/');
    expect(() => fillPath('/objects/:id')).toThrow(':id');
  });

  it('mints only paths that the default setup\'s route table serves with the route named for them', () => {
    const table = new RouteTable('https://pod.example/', routesOf(objectsOf('activitypub')).map(({ route }): Route => route));
    const sample = { user: 'alice', collection: 'followers', id: '0193' };
    for (const { template, route } of Object.values(MINTED_PATHS)) {
      const path = `/${fillPath(template, sample)}`;
      // The shared inbox is a place to deliver to, uploadMedia one to upload to: both are served to POSTs only.
      const method = route === 'inbox' || route === 'upload-media' ? 'POST' : 'GET';
      expect([ path, routeName(table.find(method, path)) ]).toEqual([ path, route ]);
    }
    for (const collection of [ 'inbox', 'outbox', 'followers', 'following', 'liked' ]) {
      expect(routeName(table.find('GET', `/actors/alice/${collection}`))).toBe('collection');
    }
    expect(routeName(table.find('POST', '/actors/alice/inbox'))).toBe('inbox');
    expect(routeName(table.find('POST', '/actors/alice/outbox'))).toBe('outbox');
    expect(routeName(table.find('POST', '/webhooks/some-secret'))).toBe('webhooks');
  });

  it.each([ 'activitypub', 'ldp', 'ldp-sparql', 'ldp-wac' ])('%s: every route but the LDP ones names its handler, and none is also in the LDP chain', (setup) => {
    const objects = objectsOf(setup);
    const routes = routesOf(objects);
    expect(() => new RouteTable('https://pod.example/', routes.map(({ route }): Route => route))).not.toThrow();
    const withoutHandler = routes.filter(({ config }): boolean => config.options_handler === undefined)
      .map(({ route }): string => route.name);
    expect(withoutHandler.filter((name): boolean => name !== 'webhook-data')).toEqual([]);
    const handlers = (ids: Set<string>): string[] => [ ...ids ].filter((id): boolean => id.endsWith('Handler') || id.endsWith('Handlers'));
    const routed = handlers(idsIn(routes.map(({ config }): unknown => config.options_handler)));
    expect(routed.length).toBeGreaterThan(0);
    const chain = idsIn(objects.filter((object): boolean => object['@id'] === 'urn:solid-server:default:HttpHandler' ||
      object['@id'] === 'urn:fedpod:default:LdpHandlers'));
    expect(chain.size).toBeGreaterThan(0);
    // A route may end its list with the whole LDP chain (for the representations it does not make), not a member of it.
    chain.delete('urn:solid-server:default:HttpHandler');
    expect(routed.filter((id): boolean => chain.has(id))).toEqual([]);
  });
});
