/**
 * The paths of what the server mints, as templates in the route table's syntax (find-my-way, relative
 * to the base URL): the config's routes serve these templates, and the URLs the server hands out are
 * filled in from them, so the two cannot drift apart (test/unit/util/PathTemplates.test.ts checks that
 * each template is served by the route named here).
 */
export const MINTED_PATHS = {
  actors: { template: '/actors/', route: 'ldp' },
  actor: { template: '/actors/:user', route: 'actor' },
  collection: { template: '/actors/:user/:collection', route: 'collection' },
  uploadMedia: { template: '/actors/:user/uploadMedia', route: 'upload-media' },
  sharedInbox: { template: '/inbox', route: 'inbox' },
  objects: { template: '/objects/', route: 'object-container' },
  object: { template: '/objects/:id', route: 'object' },
  activities: { template: '/activities/', route: 'object-container' },
  activity: { template: '/activities/:id', route: 'object' },
  remote: { template: '/remote', route: 'remote-object' },
  notificationGateway: { template: '/.notifications/gateway/', route: 'notification-gateway' },
  notificationConnection: { template: '/.notifications/gateway/websocket/', route: 'notification-gateway' },
} as const;

export type MintedPath = keyof typeof MINTED_PATHS;

/**
 * A template with its `:name` segments filled in (each value percent-encoded as one segment), without
 * the leading slash, so that it can be appended to a base URL ending in one.
 */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.slice(1).replaceAll(/:([A-Za-z]+)/gu, (whole: string, name: string): string => {
    const value = params[name];
    if (value === undefined) {
      throw new Error(`${template}: no value for :${name}`);
    }
    return encodeURIComponent(value);
  });
}
