import type { JsonObject } from '../../../../src/plugins/ldp/Contexts';
import { ACTIVITYSTREAMS_CONTEXT_URL, FEDIVERSE_TERMS, SECURITY_V1_CONTEXT_URL } from '../../../../src/plugins/ldp/Contexts';
import type { RemoteContextSource } from '../../../../src/plugins/ldp/DocumentLoader';
import { DocumentLoader, UnknownContextError } from '../../../../src/plugins/ldp/DocumentLoader';

const BASE = 'https://pod.example/';
const REMOTE_CONTEXT = 'https://remote.example/context.jsonld';
const REMOTE_DOCUMENT: JsonObject = { '@context': { mood: 'https://remote.example/ns#mood' }};

/** A context source that knows one context and records what it was asked. */
class OneContextSource implements RemoteContextSource {
  public readonly asked: string[] = [];
  public async contextDocument(url: string): Promise<JsonObject | undefined> {
    this.asked.push(url);
    return url === REMOTE_CONTEXT ? REMOTE_DOCUMENT : undefined;
  }
}

/** The `@context` member of what the loader gives for `url`. */
async function contextOf(load: (url: string) => Promise<{ document: JsonObject }>, url: string): Promise<unknown> {
  return (await load(url)).document['@context'];
}

describe('DocumentLoader', (): void => {
  it('serves the bundled contexts in their http, https and .jsonld spellings', async(): Promise<void> => {
    const loader = new DocumentLoader();
    const activityStreams = await loader.load(ACTIVITYSTREAMS_CONTEXT_URL);
    expect(activityStreams.documentUrl).toBe(ACTIVITYSTREAMS_CONTEXT_URL);
    expect(activityStreams.contextUrl).toBeUndefined();
    expect((activityStreams.document['@context'] as JsonObject).Note).toBe('as:Note');
    for (const spelling of [ 'http://www.w3.org/ns/activitystreams', `${ACTIVITYSTREAMS_CONTEXT_URL}.jsonld` ]) {
      expect((await loader.load(spelling)).document).toBe(activityStreams.document);
    }
    const security = await loader.load(SECURITY_V1_CONTEXT_URL);
    expect(JSON.stringify(security.document)).toContain('publicKeyPem');
    expect((await loader.load(SECURITY_V1_CONTEXT_URL.replace('https:', 'http:'))).document).toBe(security.document);
  });

  it('serves this server\'s own context from memory, with the base URL given', async(): Promise<void> => {
    const context = await contextOf(new DocumentLoader(BASE).load, `${BASE}context.json`) as JsonObject;
    expect(context.ldp).toBe('http://www.w3.org/ns/ldp#');
    expect(context.publicKey).toEqual({ '@id': 'sec:publicKey', '@type': '@id' });
    await expect(new DocumentLoader().load(`${BASE}context.json`)).rejects.toThrow(UnknownContextError);
  });

  it('refuses any other context for clients\' documents, fetching nothing', async(): Promise<void> => {
    const source = new OneContextSource();
    const loader = new DocumentLoader(BASE, source);
    const error = await loader.load(REMOTE_CONTEXT).catch((caught: unknown): unknown => caught);
    expect(error).toBeInstanceOf(UnknownContextError);
    expect((error as Error).message).toBe(`Unknown JSON-LD context ${REMOTE_CONTEXT}: only bundled contexts and this server's context are loaded`);
    // The fediverse vocabularies are for other servers' documents only.
    await expect(loader.load('https://joinmastodon.org/ns')).rejects.toThrow(UnknownContextError);
    expect(source.asked).toEqual([]);
  });

  describe('for other servers\' documents', (): void => {
    it('reads the known fediverse vocabularies as the fediverse terms, on any host for litepub\'s schema', async(): Promise<void> => {
      const source = new OneContextSource();
      const loader = new DocumentLoader(BASE, source);
      for (const url of [ 'http://joinmastodon.org/ns', 'https://misskey-hub.net/ns', 'https://akkoma.example/schemas/litepub-0.1.jsonld' ]) {
        expect(await contextOf(loader.loadLenient, url)).toBe(FEDIVERSE_TERMS);
      }
      expect(source.asked).toEqual([]);
    });

    it('asks the remote source for any other context, and reads one it cannot have as empty', async(): Promise<void> => {
      const source = new OneContextSource();
      const loader = new DocumentLoader(BASE, source);
      expect((await loader.loadLenient(REMOTE_CONTEXT)).document).toBe(REMOTE_DOCUMENT);
      expect(await contextOf(loader.loadLenient, 'https://remote.example/gone.jsonld')).toEqual({});
      expect(source.asked).toEqual([ REMOTE_CONTEXT, 'https://remote.example/gone.jsonld' ]);
      // Bundled ones are never asked for.
      expect((await loader.loadLenient(ACTIVITYSTREAMS_CONTEXT_URL)).document).toBe((await loader.load(ACTIVITYSTREAMS_CONTEXT_URL)).document);
      expect(source.asked).toHaveLength(2);
    });

    it('reads every unknown context as empty without a remote source, or offline', async(): Promise<void> => {
      expect(await contextOf(new DocumentLoader(BASE).loadLenient, REMOTE_CONTEXT)).toEqual({});
      const source = new OneContextSource();
      const loader = new DocumentLoader(BASE, source);
      expect(await contextOf(loader.loadOffline, REMOTE_CONTEXT)).toEqual({});
      expect(await contextOf(loader.loadOffline, 'https://joinmastodon.org/ns')).toBe(FEDIVERSE_TERMS);
      expect((await loader.loadOffline(`${BASE}context.json`)).documentUrl).toBe(`${BASE}context.json`);
      expect(source.asked).toEqual([]);
    });
  });
});
