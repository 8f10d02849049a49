import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HttpHandler } from '@solid/community-server';
import { MastodonOAuthService } from '../../../../src/plugins/mastodon/MastodonOAuthService';
import type { Agent } from '../../../../src/handlers/http/Agent';
import type { HandlerServer } from '../support/handlerServer';
import { serveHandler } from '../support/handlerServer';

/** An OAuth service over a temporary data directory, with one registered app, and a handler served over it. */
export interface OAuthWorld {
  oauth: MastodonOAuthService;
  clientId: string;
  clientSecret: string;
  server: HandlerServer;
  stop: () => Promise<void>;
}

export const CALLBACK = 'https://app.example/callback';

export async function startOAuthWorld(handlerOf: (oauth: MastodonOAuthService) => HttpHandler, agent?: (request: Headers) => Agent | undefined,
  paramsOf?: (path: string) => Record<string, string>): Promise<OAuthWorld> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fedpod-oauth-handler-'));
  const oauth = new MastodonOAuthService(dataDir);
  const { app, clientSecret } = await oauth.register({ client_name: 'Test app', redirect_uris: `${CALLBACK} urn:ietf:wg:oauth:2.0:oob`, scopes: 'read write' });
  const server = await serveHandler(handlerOf(oauth), agent ?
    (request, operation): void => {
      const found = agent(new Headers(request.headers as Record<string, string>));
      if (found) {
        operation.authenticated(found);
      }
    } :
    undefined, undefined, paramsOf);
  return {
    oauth, clientId: app.clientId, clientSecret, server,
    stop: async(): Promise<void> => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
