import { PublicAccess } from '../../../../src/handlers/access/PublicAccess';
import { Route } from '../../../../src/handlers/pipeline/Route';
import { RouteTable } from '../../../../src/handlers/pipeline/RouteTable';

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
      expect(table.find('DELETE', '/objects/abc')?.route).toBe(object);
      expect(table.find('DELETE', '/objects/abc/deeper')?.route).toBe(everything);
      expect(table.find('POST', '/inbox')?.route).toBe(inbox);
    }
  });

  it('answers undefined where no route serves the method and path', () => {
    const table = new RouteTable('https://pod.example/', [ inbox, object ]);
    expect(table.find('GET', '/objects/')).toBeUndefined();
    expect(table.find('GET', '/inbox')).toBeUndefined();
    expect(table.find('POST', '/somewhere')).toBeUndefined();
  });

  it('serves templates under the base URL\'s path', () => {
    const table = new RouteTable('https://pod.example/fedpod/', [ object ]);
    expect(table.find('GET', '/fedpod/objects/x')?.params).toEqual({ id: 'x' });
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
      expect(table.find('POST', '/actors/alice/inbox')?.route).toBe(boxPosts);
      for (const method of [ 'GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS' ]) {
        expect(table.find(method, '/actors/alice/inbox')?.route).toBe(box);
      }
    }
  });
});
