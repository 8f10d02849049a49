/** The actor document a test's stand-in for another server serves: a Person with the test's public key. */
export function standInActorDocument(id: string, publicKeyPem: string, preferredUsername: string): Record<string, unknown> {
  return {
    '@context': [ 'https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1' ],
    id,
    type: 'Person',
    preferredUsername,
    inbox: `${id}/inbox`,
    outbox: `${id}/outbox`,
    publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem },
  };
}
