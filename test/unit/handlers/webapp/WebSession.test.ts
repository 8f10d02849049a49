import type { IncomingMessage } from 'node:http';
import type { TokenService } from '../../../../src/plugins/accounts/TokenService';
import { FedpodHttpError } from '../../../../src/util/HttpErrors';
import { WebSession } from '../../../../src/handlers/webapp/WebSession';

const BASE = 'https://pod.example/';

function request(headers: Record<string, string>, method = 'GET'): IncomingMessage {
  return { method, headers } as unknown as IncomingMessage;
}

describe('WebSession', (): void => {
  const tokens = {
    verify: jest.fn(async(token: string) => {
      if (token.startsWith('good')) {
        return { webId: 'https://pod.example/actors/alice', username: 'alice' };
      }
      throw new FedpodHttpError(401, 'invalid_token', 'The token is not valid.');
    }),
  } as unknown as TokenService;
  const session = new WebSession(BASE, tokens);

  it('reads the reader from the web session cookie, with a form key that is not the token', async(): Promise<void> => {
    const reader = await session.reader(request({ cookie: 'other=1; fedpod_web_session=good-1' }));
    expect(reader).toMatchObject({ username: 'alice', webId: 'https://pod.example/actors/alice' });
    expect(reader!.formKey).not.toContain('good-1');
    const other = await session.reader(request({ cookie: 'fedpod_web_session=good-2' }));
    expect(other!.formKey).not.toBe(reader!.formKey);
  });

  it('has no reader without the cookie, with an invalid token, or for a request another origin made', async(): Promise<void> => {
    expect(await session.reader(request({}))).toBeUndefined();
    expect(await session.reader(request({ cookie: 'fedpod_session=good-1' }))).toBeUndefined();
    expect(await session.reader(request({ cookie: 'fedpod_web_session=bad' }))).toBeUndefined();
    expect(await session.reader(request({ cookie: 'fedpod_web_session=good-1', origin: 'https://evil.example' }))).toBeUndefined();
    expect(await session.reader(request({ cookie: 'fedpod_web_session=good-1', 'sec-fetch-site': 'same-site' }))).toBeUndefined();
    expect(await session.reader(request({ cookie: 'fedpod_web_session=good-1', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' })))
      .toBeUndefined();
    // A link followed from another site opens the page as the reader (a navigation: nothing it can read).
    expect(await session.reader(request({ cookie: 'fedpod_web_session=good-1', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' })))
      .toBeDefined();
    expect(await session.reader(request({ cookie: 'fedpod_web_session=good-1', origin: 'https://pod.example', 'sec-fetch-site': 'same-origin' })))
      .toBeDefined();
  });

  it('takes a form only with the session and its form key, else 403', async(): Promise<void> => {
    const { formKey } = (await session.reader(request({ cookie: 'fedpod_web_session=good-1' })))!;
    const post = (cookie: string, key?: string, headers: Record<string, string> = {}): Promise<unknown> =>
      session.poster(request({ cookie, ...headers }, 'POST'), new URLSearchParams(key === undefined ? {} : { csrf: key }));
    await expect(post('fedpod_web_session=good-1', formKey)).resolves.toMatchObject({ username: 'alice' });
    await expect(post('fedpod_web_session=good-1')).rejects.toMatchObject({ statusCode: 403, message: expect.stringMatching(/not sent from your pages/u) });
    await expect(post('fedpod_web_session=good-1', `${formKey}x`)).rejects.toMatchObject({ statusCode: 403 });
    await expect(post('fedpod_web_session=good-2', formKey)).rejects.toMatchObject({ statusCode: 403 });
    await expect(post('', formKey)).rejects.toMatchObject({ statusCode: 403 });
    await expect(post('fedpod_web_session=good-1', formKey, { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' }))
      .rejects.toMatchObject({ statusCode: 403 });
  });
});
