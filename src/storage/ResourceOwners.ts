/**
 * Who owns an LDP resource that an authenticated agent created (for setups where anyone may append
 * and only the creator may change what they made). `OwnerStore` is the SPARQL implementation.
 */
export interface ResourceOwners {
  /** The WebID of the owner, or undefined when nobody claimed the resource. */
  ownerOf: (iri: string) => Promise<string | undefined>;
  /** Records the owner of a resource that has none yet; an existing owner is kept. */
  claim: (iri: string, webId: string) => Promise<void>;
}
