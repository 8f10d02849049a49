import { PublicAccess } from '../../../../src/handlers/access/PublicAccess';
import { Route } from '../../../../src/handlers/pipeline/Route';
import type { MethodMismatch, RouteMatch } from '../../../../src/handlers/pipeline/RouteTable';
import { RouteTable } from '../../../../src/handlers/pipeline/RouteTable';

const routeOf = (found: RouteMatch | MethodMismatch | undefined): Route | undefined =>
  found && 'route' in found ? found.route : undefined;

describe('RouteTable', () => {
  const access = new PublicAccess();
  const inbox = new Route({ name: 'inbox', paths: [ '/actors/:user/inbox', '/inbox' ], access, methods: [ 'POST' ]});
  const collection = new Route({ name: 'collection', paths: [ '/actors/:user/:collection' ], access });
  const object = new Route({ name: 'object', paths: [ '/objects/:id' ], access });
  const everything = new Route({ name: 'everything', paths: [ '/*' ], access });

  it('finds the most specific template whatever the order of the routes', () => {
    for (const routes of [ [ inbox, collection, object, everything ], [ everything, object, collection, inbox ] ]) {
      const table = new RouteTable('https://pod.example/', routes);
      expect(table.find('POST', '/actors/alice/inbox')).toEqual({ route: inbox, template: '/actors/:user/inbox', params: { user: 'alice' }});
      expect(table.find('GET', '/actors/alice/inbox')).toEqual({ route: collection, template: '/actors/:user/:collection', params: { user: 'alice', collection: 'inbox' }});
      expect(routeOf(table.find('DELETE', '/objects/abc'))).toBe(object);
      expect(routeOf(table.find('DELETE', '/objects/abc/deeper'))).toBe(everything);
      expect(routeOf(table.find('POST', '/inbox'))).toBe(inbox);
    }
  });

  it('answers undefined where no route serves the method and path', () => {
    const table = new RouteTable('https://pod.example/', [ inbox, object ]);
    expect(table.find('GET', '/objects/')).toBeUndefined();
    expect(table.find('POST', '/somewhere')).toBeUndefined();
  });

  it('serves templates under the base URL\'s path', () => {
    const table = new RouteTable('https://pod.example/fedpod/', [ object ]);
    expect((table.find('GET', '/fedpod/objects/x') as RouteMatch).params).toEqual({ id: 'x' });
    expect(table.find('GET', '/objects/x')).toBeUndefined();
  });

  it('refuses a template registered twice for one method at start-up', () => {
    expect(() => new RouteTable('https://pod.example/', [ object, new Route({ name: 'again', paths: [ '/objects/:id' ], access }) ]))
      .toThrow(/Route again: \/objects\/:id cannot be added: every method is claimed/u);
    const posts = new Route({ name: 'posts', paths: [ '/objects/:id' ], access, methods: [ 'post' ]});
    const postsAgain = new Route({ name: 'posts-again', paths: [ '/objects/:id' ], access, methods: [ 'PUT', 'POST' ]});
    expect(() => new RouteTable('https://pod.example/', [ posts, postsAgain ]))
      .toThrow(/Route posts-again: \/objects\/:id cannot be added: POST is claimed/u);
  });

  it('gives an all-methods route the methods that routes naming theirs leave on the same template', () => {
    const boxPosts = new Route({ name: 'box-posts', paths: [ '/actors/:user/inbox' ], access, methods: [ 'POST' ]});
    const box = new Route({ name: 'box', paths: [ '/actors/:user/inbox' ], access });
    for (const routes of [ [ box, boxPosts ], [ boxPosts, box ] ]) {
      const table = new RouteTable('https://pod.example/', routes);
      expect(routeOf(table.find('POST', '/actors/alice/inbox'))).toBe(boxPosts);
      for (const method of [ 'GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS' ]) {
        expect(routeOf(table.find(method, '/actors/alice/inbox'))).toBe(box);
      }
    }
  });

  it('answers a method no route of a served template takes as a mismatch naming the methods taken', () => {
    const table = new RouteTable('https://pod.example/', [ inbox, object ]);
    expect(table.find('GET', '/inbox')).toEqual({ allowed: [ 'POST' ], template: '/inbox' });
    expect(table.find('DELETE', '/actors/alice/inbox')).toEqual({ allowed: [ 'POST' ], template: '/actors/:user/inbox' });
    // A plain OPTIONS is not refused: it keeps reaching what it reached before.
    expect(table.find('OPTIONS', '/inbox')).toBeUndefined();
  });

  it('leaves the other methods to the LDP resources when a route says its template is one', () => {
    const signupHint = new Route({ name: 'hint', paths: [ '/actors/' ], access, methods: [ 'POST' ], otherMethods: 'ldp' });
    const table = new RouteTable('https://pod.example/', [ signupHint ]);
    expect(routeOf(table.find('POST', '/actors/'))).toBe(signupHint);
    expect(table.find('GET', '/actors/')).toBeUndefined();
  });

  it('lets a route that takes the method answer before any mismatch of a more specific template', () => {
    const instance = new Route({ name: 'instance', paths: [ '/api/v1/instance' ], access, methods: [ 'GET', 'HEAD' ]});
    const notFound = new Route({ name: 'not-found', paths: [ '/api/v1/*' ], access });
    const table = new RouteTable('https://pod.example/', [ instance, notFound ]);
    expect(routeOf(table.find('DELETE', '/api/v1/instance'))).toBe(notFound);
    expect(new RouteTable('https://pod.example/', [ instance ]).find('DELETE', '/api/v1/instance'))
      .toEqual({ allowed: [ 'GET', 'HEAD' ], template: '/api/v1/instance' });
  });
});
