/**
 * A browser's part of a login for tests (Solid-OIDC, an app's OAuth): redirects followed by hand,
 * cookies kept by name (paths and domains ignored: one test server).
 */
export class Browser {
  private readonly cookies = new Map<string, string>();

  public async open(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [ ...this.cookies ].map(([ name, value ]): string => `${name}=${value}`).join('; ');
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers as Record<string, string>, cookie }});
    for (const line of response.headers.getSetCookie()) {
      const [ pair ] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }

  /** Follows redirects from `url` until a page (2xx, 4xx) or a redirect to `stopAt`; returns the last response and its URL. */
  public async follow(url: string, stopAt: string, init: RequestInit = {}): Promise<{ response: Response; url: string }> {
    let current = url;
    let response = await this.open(current, init);
    for (let hops = 0; response.status >= 300 && response.status < 400; hops++) {
      expect(hops).toBeLessThan(10);
      current = new URL(response.headers.get('location')!, current).href;
      if (current.startsWith(stopAt)) {
        return { response, url: current };
      }
      response = await this.open(current);
    }
    return { response, url: current };
  }
}
