import { FedpodHttpError } from '../../util/HttpErrors';

/**
 * An error of the OAuth endpoints as OAuth 2 answers it (RFC 6749, 5.2): `error` is the code,
 * `error_description` says why (and `message`, as every Fedpod error has).
 */
export function oauthError(status: number, code: string, description: string): FedpodHttpError {
  const headers: Record<string, string> = status === 401 ? { 'www-authenticate': 'Basic realm="oauth"' } : {};
  return new FedpodHttpError(status, code, description, headers, { error_description: description });
}

/** The app is unknown or its secret is wrong. */
export const invalidClient = (): FedpodHttpError =>
  oauthError(401, 'invalid_client', 'Client authentication failed: unknown client_id or wrong client_secret.');

/** The code or refresh token is unknown, used, expired or not this app's. */
export const invalidGrant = (description: string): FedpodHttpError => oauthError(400, 'invalid_grant', description);
