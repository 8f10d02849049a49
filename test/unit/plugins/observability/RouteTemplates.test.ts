import { OTHER_ROUTE, RouteTemplates } from '../../../../src/plugins/observability/RouteTemplates';

describe('RouteTemplates', (): void => {
  const routes = new RouteTemplates([
    '/', '/healthz', '/actors/', '/actors/:user', '/actors/:user/inbox', '/actors/:user/*',
    '/webhooks', '/webhooks/:secret', '/notes/', '/notes/*',
  ]);

  it('names a path by the first template that matches it, ignoring the query string', (): void => {
    expect(routes.classify('/')).toBe('/');
    expect(routes.classify('/healthz?verbose=1')).toBe('/healthz');
    expect(routes.classify('/actors/')).toBe('/actors/');
    expect(routes.classify('/actors/alice')).toBe('/actors/:user');
    expect(routes.classify('/actors/alice/inbox')).toBe('/actors/:user/inbox');
    expect(routes.classify('/actors/alice/outbox?page=2')).toBe('/actors/:user/*');
    expect(routes.classify('/actors/alice/a/b/c')).toBe('/actors/:user/*');
    expect(routes.classify('/notes/')).toBe('/notes/');
    expect(routes.classify('/notes/abc')).toBe('/notes/*');
    expect(routes.classify('/notes/a/b')).toBe('/notes/*');
  });

  it('never returns the secret of a webhook URI, only its template', (): void => {
    const secret = 'Zm9vYmFyYmF6cXV4cXV1eGZvb2JhcmJhenF1eHF1dXg';
    expect(routes.classify(`/webhooks/${secret}`)).toBe('/webhooks/:secret');
    expect(routes.classify(`/webhooks/${secret}/more`)).toBe(OTHER_ROUTE);
    expect(routes.classify('/webhooks')).toBe('/webhooks');
  });

  it('calls everything else other: unknown paths, empty segments for :names, absolute or missing targets', (): void => {
    expect(routes.classify('/unknown/path')).toBe(OTHER_ROUTE);
    expect(routes.classify('/actors//inbox')).toBe(OTHER_ROUTE);
    expect(routes.classify('http://example.org/actors/alice')).toBe(OTHER_ROUTE);
    expect(routes.classify('*')).toBe(OTHER_ROUTE);
    expect(routes.classify(undefined)).toBe(OTHER_ROUTE);
    expect(routes.classify('')).toBe(OTHER_ROUTE);
  });

  it('refuses templates that do not start with / or have * elsewhere than at the end', (): void => {
    expect((): RouteTemplates => new RouteTemplates([ 'actors' ])).toThrow('must start with /');
    expect((): RouteTemplates => new RouteTemplates([ '/a/*/b' ])).toThrow('may only end it');
  });
});
