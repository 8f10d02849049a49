import { PublicAccess } from '../../../../src/handlers/access/PublicAccess';
import { Route } from '../../../../src/handlers/pipeline/Route';

describe('Route', (): void => {
  const access = new PublicAccess();

  it('keeps what the route declares, methods upper case and media types lower case', (): void => {
    const route = new Route({ name: 'inbox', paths: [ 'actors/:user/inbox' ], access, methods: [ 'post', 'Get' ],
      maxBodyBytes: 1000, mediaTypes: [ 'Application/Activity+JSON' ], authenticate: false });
    expect(route).toMatchObject({ name: 'inbox', paths: [ 'actors/:user/inbox' ], access, methods: [ 'POST', 'GET' ],
      maxBodyBytes: 1000, mediaTypes: [ 'application/activity+json' ], authenticate: false });
  });

  it('defaults to every method, any media type, the pipeline\'s body limit and authentication', (): void => {
    const route = new Route({ name: 'ldp', paths: [ '*' ], access });
    expect(route.methods).toEqual([]);
    expect(route.mediaTypes).toEqual([]);
    expect(route.maxBodyBytes).toBeUndefined();
    expect(route.handler).toBeUndefined();
    expect(route.authenticate).toBe(true);
  });
});
