import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HttpRequest } from '@solid/community-server';
import { NotImplementedHttpError, UnauthorizedHttpError } from '@solid/community-server';
import { FedpodTokenExtractor } from '../../../../src/handlers/auth/FedpodTokenExtractor';
import { TokenService } from '../../../../src/plugins/accounts/TokenService';
import { rejection } from '../../../support/rejection';

const BASE = 'https://pod.example/';
const ALICE = `${BASE}actors/alice`;

function withAuthorization(authorization?: string): HttpRequest {
  return { method: 'GET', url: '/alice/', headers: authorization === undefined ? {} : { authorization }} as unknown as HttpRequest;
}

describe('FedpodTokenExtractor', (): void => {
  const dirs: string[] = [];
  let tokens: TokenService;
  let extractor: FedpodTokenExtractor;

  function tokenService(): TokenService {
    const dir = mkdtempSync(path.join(tmpdir(), 'fedpod-token-extractor-'));
    dirs.push(dir);
    return new TokenService(BASE, dir);
  }

  beforeAll((): void => {
    tokens = tokenService();
    extractor = new FedpodTokenExtractor(tokens);
  });

  afterAll((): void => {
    for (const dir of dirs) {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives the WebID of a valid token of this server as the credentials\' agent', async(): Promise<void> => {
    const request = withAuthorization(`Bearer ${await tokens.issue({ webId: ALICE, username: 'alice' })}`);
    await expect(extractor.canHandle(request)).resolves.toBeUndefined();
    await expect(extractor.handle(request)).resolves.toEqual({ agent: { webId: ALICE }});
  });

  it('leaves requests without a bearer token, and other servers\' tokens, to the other extractors', async(): Promise<void> => {
    const foreign = await new TokenService('https://other.example/', dirs[0]).issue({ webId: ALICE, username: 'alice' });
    for (const authorization of [ undefined, 'Basic YTpi', 'Bearer not-a-jwt', `DPoP ${foreign}`, `Bearer ${foreign}` ]) {
      const error = await rejection(extractor.canHandle(withAuthorization(authorization)));
      expect(error).toBeInstanceOf(NotImplementedHttpError);
    }
  });

  it('answers 401 to a token that claims to be this server\'s but does not verify', async(): Promise<void> => {
    // Same issuer, another signing key: it looks like this server's token.
    const forged = await tokenService().issue({ webId: ALICE, username: 'alice' });
    const request = withAuthorization(`Bearer ${forged}`);
    await expect(extractor.canHandle(request)).resolves.toBeUndefined();
    const error = await rejection(extractor.handle(request));
    expect(error).toBeInstanceOf(UnauthorizedHttpError);
    expect((error as Error).message).toBe('The token is not valid.');
  });
});
