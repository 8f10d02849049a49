import type { ResourceStore } from '@solid/community-server';
import {
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
