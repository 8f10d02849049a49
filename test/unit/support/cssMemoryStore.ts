import type { ResourceIdentifier, ResourceStore } from '@solid/community-server';
import {
  BasicRepresentation,
  INTERNAL_QUADS,
  ComposedAuxiliaryStrategy,
  DataAccessorBasedStore,
  InMemoryDataAccessor,
  RoutingAuxiliaryStrategy,
  SingleRootIdentifierStrategy,
  SuffixAuxiliaryIdentifierStrategy,
} from '@solid/community-server';

/**
 * CSS's own resource store over its in-memory accessor, with `.acl` and `.meta` auxiliary resources:
 * real CSS behaviour (containers, parents made on write, containment) for classes that write through
 * CSS's store, with no triple store behind it.
 */
export function cssMemoryStore(baseUrl: string): ResourceStore {
  const identifiers = new SingleRootIdentifierStrategy(baseUrl);
  const acl = new ComposedAuxiliaryStrategy(new SuffixAuxiliaryIdentifierStrategy('.acl'));
  const meta = new ComposedAuxiliaryStrategy(new SuffixAuxiliaryIdentifierStrategy('.meta'));
  return new DataAccessorBasedStore(new InMemoryDataAccessor(identifiers), identifiers, new RoutingAuxiliaryStrategy([ acl, meta ]), meta);
}

/**
 * `store`, but every creation (setRepresentation) fails; with `racing`, after making the resource
 * as another process or node would have meanwhile.
 */
export function failingCreations(store: ResourceStore, racing: boolean): ResourceStore {
  return new Proxy(store, { get: (target, name): unknown => name === 'setRepresentation' ?
    async(identifier: ResourceIdentifier): Promise<never> => {
      if (racing) {
        await target.setRepresentation(identifier, new BasicRepresentation([], identifier, INTERNAL_QUADS));
      }
      throw new Error('store refused');
    } :
    Reflect.get(target, name) });
}
