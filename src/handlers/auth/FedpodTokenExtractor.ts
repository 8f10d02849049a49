import type { Credentials, HttpRequest } from '@solid/community-server';
import { CredentialsExtractor, NotImplementedHttpError, UnauthorizedHttpError } from '@solid/community-server';
import type { TokenService } from '../../plugins/accounts/TokenService';
import { bearerToken } from './BearerToken';
import { messageOf } from '../../util/Errors';

/**
 * Lets Fedpod's own tokens authenticate LDP requests through CSS's pipeline (so WebACL sees the
 * WebID), ahead of CSS's Solid-OIDC extractors: a Bearer token issued by this server is verified
 * here (401 if forged or expired); any other token is left to CSS's DPoP/Bearer extractors.
 */
export class FedpodTokenExtractor extends CredentialsExtractor {
  public constructor(private readonly tokens: TokenService) {
    super();
  }

  public override async canHandle(request: HttpRequest): Promise<void> {
    const token = bearerToken(request);
    if (!token || !this.tokens.isOwnToken(token)) {
      throw new NotImplementedHttpError('Not a Fedpod token');
    }
  }

  public async handle(request: HttpRequest): Promise<Credentials> {
    try {
      const { webId } = await this.tokens.verify(bearerToken(request)!);
      return { agent: { webId }};
    } catch (error: unknown) {
      throw new UnauthorizedHttpError(messageOf(error));
    }
  }
}
