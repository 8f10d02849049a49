import { RemoteFetchError } from '../../../../../src/plugins/activitypub/fetch/FetchErrors';
import type { GetJsonResult, RemoteFetcher } from '../../../../../src/plugins/activitypub/fetch/RemoteFetcher';
import { RemoteContextCache } from '../../../../../src/plugins/activitypub/fetch/RemoteContextCache';

const CONTEXT = { '@context': { mood: 'https://vocab.example/ns#mood' }};

/** Stand-in for the network side of RemoteFetcher (tested against real servers in RemoteFetcher.test.ts): answers by URL, counting. */
function fetcherAnswering(answers: Record<string, GetJsonResult | Error>): { fetcher: RemoteFetcher; asked: string[] } {
  const asked: string[] = [];
  const fetcher = { getJson: async(url: string): Promise<GetJsonResult> => {
    asked.push(url);
    await new Promise((resolve) => setImmediate(resolve));
    const answer = answers[url];
    if (answer instanceof Error) {
      throw answer;
    }
    return answer ?? { status: 404, finalUrl: url };
  } } as unknown as RemoteFetcher;
  return { fetcher, asked };
}

describe('RemoteContextCache', (): void => {
  const ok = (url: string, json: unknown = CONTEXT): GetJsonResult => ({ status: 200, json, finalUrl: url, contentType: 'application/ld+json' });

  it('fetches a context once, also when it is asked for several times at once', async(): Promise<void> => {
    const url = 'https://ctx.example/ns';
    const { fetcher, asked } = fetcherAnswering({ [url]: ok(url) });
    const cache = new RemoteContextCache(fetcher);
    const documents = await Promise.all([ cache.contextDocument(url), cache.contextDocument(url) ]);
    expect(documents).toEqual([ CONTEXT, CONTEXT ]);
    expect(await cache.contextDocument(url)).toEqual(CONTEXT);
    expect(asked).toEqual([ url ]);
  });

  it.each([
    [ 'an error status', { status: 500, finalUrl: 'https://ctx.example/bad' } ],
    [ 'JSON without @context', { status: 200, json: { hello: 1 }, finalUrl: 'https://ctx.example/bad' } ],
    [ 'no JSON', { status: 200, finalUrl: 'https://ctx.example/bad', contentType: 'text/html' } ],
    [ 'a network failure', new RemoteFetchError('timed out', true, 'ETIMEDOUT') ],
  ])('remembers a failure (%s) as undefined until its time is up', async(what, answer): Promise<void> => {
    const url = 'https://ctx.example/bad';
    const { fetcher, asked } = fetcherAnswering({ [url]: answer });
    const cache = new RemoteContextCache(fetcher, 10, 50);
    expect(await cache.contextDocument(url)).toBeUndefined();
    expect(await cache.contextDocument(url)).toBeUndefined();
    expect(asked).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    await cache.contextDocument(url);
    expect(asked).toHaveLength(2);
  });

  it('never fetches a context over plain HTTP', async(): Promise<void> => {
    const { fetcher, asked } = fetcherAnswering({});
    expect(await new RemoteContextCache(fetcher).contextDocument('http://ctx.example/ns')).toBeUndefined();
    expect(asked).toEqual([]);
  });

  it('forgets the oldest context beyond its size', async(): Promise<void> => {
    const urls = [ 'https://a.example/c', 'https://b.example/c', 'https://c.example/c' ];
    const { fetcher, asked } = fetcherAnswering(Object.fromEntries(urls.map((url) => [ url, ok(url) ])));
    const cache = new RemoteContextCache(fetcher, 2);
    for (const url of urls) {
      await cache.contextDocument(url);
    }
    await cache.contextDocument(urls[2]);
    await cache.contextDocument(urls[0]);
    expect(asked).toEqual([ ...urls, urls[0] ]);
  });
});
