import type { Credentials, HttpRequest } from '@solid/community-server';
import { CredentialsExtractor, NotImplementedHttpError } from '@solid/community-server';
import { Operation } from '../http/Operation';

/**
 * First of CSS's credentials extractors: for a request the pipeline has authenticated, CSS's own
 * authorization step takes the pipeline's answer instead of checking the Authorization header again.
 * Checking twice costs a second signature verification, and fails outright for Solid-OIDC, whose
 * DPoP proofs are single use (a replayed `jti` is refused). CSS hands it only the request, so it reads
 * the request's operation through Operation.of.
 */
export class PipelineAgentExtractor extends CredentialsExtractor {
  public override async canHandle(request: HttpRequest): Promise<void> {
    if (!Operation.of(request)) {
      throw new NotImplementedHttpError('The request did not go through the pipeline.');
    }
  }

  public async handle(request: HttpRequest): Promise<Credentials> {
    const { webId } = Operation.of(request)!.agent;
    return webId ? { agent: { webId }} : {};
  }
}
