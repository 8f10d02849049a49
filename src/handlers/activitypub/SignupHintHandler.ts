import type { HttpHandlerInput } from '@solid/community-server';
import { FedpodHttpError } from '../../util/HttpErrors';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';

/**
 * Actors are made by signup only. A POST to /actors (the path Fedpod's documented sample request line
 * shows) gets a 405 naming /auth/signup, before any body is read, so no password is ever stored as
 * data. Other writes to actors are refused by their routes' access policy.
 */
export class SignupHintHandler extends JsonHttpHandler {
  private readonly signup: string;

  public constructor(baseUrl: string) {
    super();
    this.signup = `${baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`}auth/signup`;
  }

  public override async canHandle({ request }: HttpHandlerInput): Promise<void> {
    if (request.method !== 'POST') {
      throw NOT_HANDLED;
    }
  }

  protected async serve(): Promise<void> {
    throw new FedpodHttpError(405, 'use_signup',
      `Actors are created by signing up: POST {"username","email","password"} as JSON to ${this.signup}.`,
      { allow: 'GET, HEAD', link: `<${this.signup}>; rel="create-form"` });
  }
}
