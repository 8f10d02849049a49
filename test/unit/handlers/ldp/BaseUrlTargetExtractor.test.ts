import type { HttpRequest } from '@solid/community-server';
import { BaseUrlTargetExtractor } from '../../../../src/handlers/ldp/BaseUrlTargetExtractor';

function request(url: string, headers: Record<string, string> = {}): HttpRequest {
  return { url, headers, socket: {} } as unknown as HttpRequest;
}

describe('BaseUrlTargetExtractor', () => {
  const extractor = new BaseUrlTargetExtractor('https://pod.example/');

  it('maps the path onto the base URL whatever Host and forwarding headers say', async() => {
    for (const headers of <Record<string, string>[]>[
      { host: 'pod.example' },
      { host: 'localhost:3000' },
      { host: 'evil.example', 'x-forwarded-proto': 'http', 'x-forwarded-host': 'other.example' },
      { host: 'pod.example', forwarded: 'host=elsewhere.example;proto=http' },
      {},
    ]) {
      await expect(extractor.handle({ request: request('/notes/a', headers) })).resolves.toEqual({ path: 'https://pod.example/notes/a' });
    }
  });

  it('canonicalises paths as CSS does and keeps the query string as sent', async() => {
    await expect(extractor.handle({ request: request('/notes//b%20c?x=1&y=a+b') }))
      .resolves.toEqual({ path: 'https://pod.example/notes/b%20c?x=1&y=a+b' });
    await expect(new BaseUrlTargetExtractor('https://pod.example/', false).handle({ request: request('/notes/?x=1') }))
      .resolves.toEqual({ path: 'https://pod.example/notes/' });
  });

  it('answers 404 for paths outside a base path, and dot segments', async() => {
    const prefixed = new BaseUrlTargetExtractor('https://host.example/pod/');
    await expect(prefixed.handle({ request: request('/pod/notes/') })).resolves.toEqual({ path: 'https://host.example/pod/notes/' });
    await expect(prefixed.handle({ request: request('/other/') })).rejects.toMatchObject({ statusCode: 404 });
    await expect(extractor.handle({ request: request('/notes/../.acl') })).rejects.toMatchObject({ statusCode: 404 });
    await expect(extractor.handle({ request: request('/notes/%2e%2e/x') })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('answers 400 for a request target that is not a path', async() => {
    await expect(extractor.handle({ request: request('http://evil.example/notes/') })).rejects.toMatchObject({ statusCode: 400 });
    await expect(extractor.handle({ request: request('*') })).rejects.toMatchObject({ statusCode: 400 });
  });
});
