import type { JsonObject } from '../../../../src/plugins/ldp/Contexts';
import {
  ACTIVITYSTREAMS_CONTEXT_URL,
  bundledContexts,
  contextUrlFor,
  fedpodContext,
  isFediverseContextUrl,
  SECURITY_V1_CONTEXT_URL,
  SECURITY_V2_CONTEXT_URL,
} from '../../../../src/plugins/ldp/Contexts';

describe('Contexts', (): void => {
  it('bundles ActivityStreams under every spelling peers use, as one document', (): void => {
    const contexts = bundledContexts();
    const document = contexts.get(ACTIVITYSTREAMS_CONTEXT_URL);
    expect((document!['@context'] as JsonObject).as).toBe('https://www.w3.org/ns/activitystreams#');
    for (const url of [ 'http://www.w3.org/ns/activitystreams', `${ACTIVITYSTREAMS_CONTEXT_URL}.jsonld`,
      'http://www.w3.org/ns/activitystreams.jsonld', `${ACTIVITYSTREAMS_CONTEXT_URL}#` ]) {
      expect(contexts.get(url)).toBe(document);
    }
    expect(bundledContexts()).toBe(contexts);
  });

  it('bundles the security contexts in their http and https spellings', (): void => {
    const contexts = bundledContexts();
    for (const url of [ SECURITY_V1_CONTEXT_URL, SECURITY_V2_CONTEXT_URL ]) {
      expect(contexts.get(url)).toBeDefined();
      expect(contexts.get(url.replace('https://', 'http://'))).toBe(contexts.get(url));
    }
    expect(contexts.get('https://remote.example/context.jsonld')).toBeUndefined();
  });

  it('makes Fedpod\'s context ActivityStreams with its own prefixes and security terms', (): void => {
    const context = fedpodContext()['@context'] as JsonObject;
    const activityStreams = bundledContexts().get(ACTIVITYSTREAMS_CONTEXT_URL)!['@context'] as JsonObject;
    expect(context.Note).toBe(activityStreams.Note);
    expect(context.dc).toBe('http://purl.org/dc/terms/');
    expect(context.publicKeyPem).toBe('sec:publicKeyPem');
    expect(context.manuallyApprovesFollowers).toBe('as:manuallyApprovesFollowers');
    // The bundled ActivityStreams document is left as it was.
    expect(activityStreams.publicKeyPem).toBeUndefined();
  });

  it.each([
    [ 'https://pod.example', 'https://pod.example/context.json' ],
    [ 'https://pod.example/', 'https://pod.example/context.json' ],
    [ 'https://example.org/pod/', 'https://example.org/pod/context.json' ],
  ])('serves the context of the base URL %s at %s', (base, url): void => {
    expect(contextUrlFor(base)).toBe(url);
  });

  it.each([
    [ 'http://joinmastodon.org/ns', true ],
    [ 'https://joinmastodon.org/ns', true ],
    [ 'https://gotosocial.org/ns', true ],
    [ 'https://pleroma.example/schemas/litepub-0.1.jsonld', true ],
    [ 'https://joinmastodon.org/ns#', false ],
    [ 'https://pleroma.example/schemas/litepub-0.2.jsonld', false ],
    [ ACTIVITYSTREAMS_CONTEXT_URL, false ],
  ])('takes %s for a fediverse vocabulary: %s', (url, expected): void => {
    expect(isFediverseContextUrl(url)).toBe(expected);
  });
});
