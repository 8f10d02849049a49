/**
 * The OpenID provider that logs this server's users in, named in each new WebID
 * (`solid:oidcIssuer`). A setup without the provider has none, so its WebIDs name no issuer.
 */
export class OidcIssuer {
  /**
   * @param url - The issuer: this server's base URL.
   */
  public constructor(public readonly url: string) {}
}
